import Testing

@testable import SondeApp

/// A comment is refused by the server as the page's maxlength would, and for what the page
/// cannot stop: a NUL (which cut the stored text short) and text-direction overrides.
@Suite struct FormFieldsTests {
    @Test func commentsTheServerKeeps() throws {
        for text in ["", "pump 3\nafter the bearing change\t(ok)", "Ünïcødé ✓ 振動", String(repeating: "é", count: 2000)]
        {
            #expect(try FormFields.comment(text) == text)
        }
    }

    @Test(arguments: [
        ("a\u{0}b", "U+0000"), ("bell\u{7}", "U+0007"), ("\u{7F}", "U+007F"), ("\u{85}", "U+0085"),
        ("\u{202E}evil", "U+202E"), ("\u{2066}x", "U+2066"), ("\u{200F}", "U+200F"),
        (String(repeating: "x", count: 2001), "longer than 2000"),
    ])
    func commentsTheServerRefuses(_ text: String, _ mention: String) {
        let error = #expect(throws: WebError.self) { try FormFields.comment(text) }
        #expect(error?.status == .badRequest)
        #expect(error?.message.contains(mention) == true, "\(error?.message ?? "")")
    }
}
