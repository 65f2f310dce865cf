/// Where in an input a problem was found. Lines and columns count from 1, as editors do.
public struct SourceLocation: CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String {
        var text = file
        if let line { text += ", line \(line)" }
        if let column { text += ", column \(column)" }
        return text
    }
}
