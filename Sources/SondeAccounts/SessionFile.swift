/// The client's session token in a file of mode 0600 (`SondeHome.sessionFilePath`): one
/// line, the token. Its directory is created 0700 when missing.
public struct SessionFile: SessionCredentialStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func load() throws -> String? {
        guard let text = try PrivateFiles.read(path) else { return nil }
        let token = String(text.trimmingWhitespace())
        return token.isEmpty ? nil : token
    }

    public func save(_ token: String) throws {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try PrivateFiles.makeDirectory(String(path[..<slash]))
        }
        try PrivateFiles.write(token + "\n", to: path)
    }

    public func remove() throws {
        try PrivateFiles.remove(path)
    }
}
