/// The app's stylesheet, script and icon: the files in `Assets/`, compiled into the binary
/// (`.embedInCode` in Package.swift), so nothing is fetched from another host, nothing is
/// installed beside the binary, and they are edited and reviewed as CSS, JS and SVG. The
/// script only adds what must be live (the loading state of a form sent by fetch, the
/// settings dialog, the New measurement screen's values and plots); every form also works
/// without it.
enum StaticAssets {
    static let stylesheetPath = AppRoute.stylesheet.path
    static let scriptPath = AppRoute.script.path
    static let iconPath = AppRoute.icon.path

    /// The tab's icon: a sine in a circle.
    static let icon = String(decoding: PackageResources.icon_svg, as: UTF8.self)

    static let stylesheet = String(decoding: PackageResources.app_css, as: UTF8.self)

    static let script = String(decoding: PackageResources.app_js, as: UTF8.self)
}
