/// Starting a cascade from a given state and reading the state it is in: what a filter cut
/// into pieces needs (`PiecewiseSOSFilter`), where each piece starts from a state computed
/// by superposition instead of from the end of the previous piece.
extension SOSFilter {
    /// A filter whose next sample continues from `state`.
    /// - Parameters:
    ///   - sections: the design.
    ///   - state: `z0 z1` per section, in section order (the layout of `currentState`),
    ///     `2 * sections.sectionCount` values.
    public init(_ sections: SecondOrderSections, state: [Double]) {
        precondition(
            state.count == 2 * sections.sectionCount,
            "SOSFilter.init: \(state.count) state values for \(sections.sectionCount) sections")
        self.init(sections)
        self.state = state
    }

    /// The transposed direct form II state, `z0 z1` per section in section order: the state
    /// the next sample meets.
    public var currentState: [Double] { state }
}
