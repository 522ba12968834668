# CocoaPods metadata of the IdleWorkPreparation product. Kept in step with Package.swift and IdleWork.podspec by
# .ci/check-podspec (version, platforms, Swift version, source glob, dependency); change them together.
Pod::Spec.new do |s|
  s.name             = 'IdleWorkPreparation'
  s.version          = '0.2.0'
  s.summary          = 'Results prepared on worker threads, cached and prefetched, applied in IdleWork\'s passes.'
  s.description      = <<-DESC
    A Preparer made with an IdleWork queue prepares each row's result on a bounded pool of workers (or in the queue's
    passes, for code that must stay on the main thread), keeps results in a cache by their input, prefetches the rows
    about to appear, and applies each result in a pass while its cell still shows the row.
  DESC
  # The repository has no public URL yet: `pod 'IdleWorkPreparation', :path => '../IdleWork'` (the README's line) reads
  # neither homepage nor source. Both name the URL it will have once published, with OWNER to fill in.
  s.homepage         = 'https://github.com/OWNER/IdleWork'
  s.license          = { :type => 'MIT', :file => 'LICENSE' }
  s.author           = { 'IdleWork contributors' => 'idlework@example.com' }
  s.source           = { :git => 'https://github.com/OWNER/IdleWork.git', :tag => s.version.to_s }

  s.ios.deployment_target  = '13.0'
  s.tvos.deployment_target = '13.0'
  s.osx.deployment_target  = '10.15'
  s.swift_versions         = ['6.0']

  s.source_files     = 'Sources/IdleWorkPreparation/**/*.swift'
  s.dependency 'IdleWork', s.version.to_s
  s.frameworks       = 'Foundation'
  # The package name SwiftPM gives every target: IdleWork's `package` declarations are visible by it.
  s.pod_target_xcconfig = { 'OTHER_SWIFT_FLAGS' => '$(inherited) -package-name IdleWork' }
end
