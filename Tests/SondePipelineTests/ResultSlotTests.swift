import Testing

@testable import SondePipeline

/// Slots go back to their pool once read and come out again as new: pending, and filled
/// and read like a fresh one, whichever side comes first.
@Suite struct ResultSlotTests {
    @Test func aRecycledSlotIsPendingAndWorksAgain() async {
        let pool = Pool<ResultSlot<Int>>.resultSlots(limit: 4)
        let slot = pool.take()
        slot.fulfil(1)
        #expect(await slot.value() == 1)
        pool.recycle(slot)
        let again = pool.take()
        #expect(again === slot, "the pool hands the same slot out again")
        // The reader waits first this time: the slot must be pending, not still holding 1.
        async let value = again.value()
        try? await Task.sleep(for: .milliseconds(20))
        again.fulfil(2)
        #expect(await value == 2)
        pool.recycle(again)
        let third = pool.take()
        third.abandon()
        #expect(await third.value() == nil)
    }
}
