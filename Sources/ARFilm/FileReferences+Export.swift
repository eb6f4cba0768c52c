// The folders a file's references may reach beyond its own (`FileReferences.allow(folder:)`,
// the CLI's `--allow-path`) are part of this module's API: its readers follow references
// through that policy, and ARFiles, which holds it, is not a product of its own.

@_exported import enum ARFiles.FileIOError
@_exported import enum ARFiles.FileReferences
