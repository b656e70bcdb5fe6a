// Dart probe programs and tests (filled in with the Dart runner).
let dartPrograms: [LanguagePrograms] = []
