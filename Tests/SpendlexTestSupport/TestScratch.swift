import Foundation

/// Where the tests write their files: one folder per test process under the system's temporary
/// directory, removed with everything in it when the process exits. Each test still makes its
/// own uniquely named folder inside it (`TestScratch.root.appendingPathComponent(...)`); before,
/// those folders sat in the temporary directory itself and were never removed (a full run left
/// about 150 folders and 150 MB behind). A run that crashes leaves its one folder.
///
/// The folder's name holds no digit (the tests that check that no card number reaches the output
/// read paths in it) and is short. The Dovecot test keeps its own folder in the temporary
/// directory, which it removes: its server's socket paths must stay under 108 bytes.
public enum TestScratch {
    /// The process's folder, made on first use.
    public static var root: URL { scratchRoot }
}

private let scratchRoot: URL = {
    let letters = UUID().uuidString.prefix(8).map { character in
        character.wholeNumberValue.map { Character(UnicodeScalar(UInt8(ascii: "g") + UInt8($0))) } ?? character
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("spendlex-tests-\(String(letters))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchRoot) }
    return url
}()
