import ArgumentParser

/// `--database URL`: the store an account or measurement command (or `sonde serve`) opens,
/// before `SONDE_DATABASE_URL` and the SQLite file under `SONDE_HOME`.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store: sqlite:PATH or postgres://USER@HOST[:PORT]/DB (default: SONDE_DATABASE_URL, else the file under SONDE_HOME).",
            valueName: "URL"))
    var database: String?
}
