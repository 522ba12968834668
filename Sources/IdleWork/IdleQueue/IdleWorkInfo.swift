/// Facts about the IdleWork build compiled into the app.
///
/// (Named `IdleWorkInfo` rather than `IdleWorkVersion`: the symbol-graph tools drop every symbol whose name starts
/// with the module name followed by `Version`, so such a type would be missing from the documentation.)
enum IdleWorkInfo {
  /// The semantic version of this release, such as `"0.1.0"`.
  ///
  /// SwiftPM takes a release's version from its git tag and CocoaPods from `IdleWork.podspec`; this constant is the
  /// one place the number is written in the sources, so a log line or a bug report can say which IdleWork ran.
  /// CI (`.ci/check-podspec`) fails unless the podspec's `version` equals it and, on a tagged commit, the tag does too.
  static let version = "0.2.0"
}
