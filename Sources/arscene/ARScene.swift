import ArgumentParser
@main struct ARScene: ParsableCommand { func run() {} }
