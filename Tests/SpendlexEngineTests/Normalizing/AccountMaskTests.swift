import Testing

@testable import SpendlexEngine

@Suite("AccountMask")
struct AccountMaskTests {
    /// raw, last digits.
    static let masks: [(String, String)] = [
        ("XX1234", "1234"),
        ("**** 1234", "1234"),
        ("xxxxxxxx1234", "1234"),
        ("A/c no. XXXXXXX1234", "1234"),
        ("ending 1234", "1234"),
        ("1234", "1234"),
        ("card ending in 4321.", "4321"),
        ("•••• 4242", "4242"),
        ("****4242", "4242"),
        ("XXXXX-81005", "81005"),
        ("ending 81005", "81005"),
        ("81005", "81005"),
        ("XX000", "000"),
        ("x000", "000"),
        ("378282246310005", "10005"),
        ("3782 822463 10005", "10005"),
        ("4111111111111111", "1111"),
        ("4111 1111 1111 1111", "1111"),
        ("4111-1111-1111-1111", "1111"),
        ("4111 1111 1111 1", "1111"),
        ("6011111111111117", "1117"),
        ("4222222222222", "2222"),
        ("1234567890", "7890"),
        ("XXXXXX123456", "3456"),
        ("1234 5678", "5678"),
        ("XXXX XXXX XXXX 9876", "9876"),
        // Shapes from the India SMS corpus.
        ("XX0000", "0000"),
        ("xx0000", "0000"),
        ("*1234", "1234"),
        ("**5678", "5678"),
        ("x0000", "0000"),
        ("xxxxx0000", "0000"),
        ("XXXXX000001", "0001"),
        ("XXXXX000", "000"),
        ("000***000000", "0000"),
        ("XXXXXXX0000", "0000"),
        ("XXXXXXXX000", "000"),
        ("*XX0000", "0000"),
        ("xxXX0000", "0000"),
        ("X0000", "0000"),
        ("**0000", "0000"),
        ("x1234", "1234"),
    ]

    @Test("last digits", arguments: masks)
    func lastDigits(_ raw: String, _ expected: String) throws {
        let digits = try AccountMask.lastDigits(raw)
        #expect(digits == expected)
        #expect(digits.count <= 5)
    }

    @Test("fewer than 3 digits", arguments: ["", "XX", "XX12", "ending", "12", "xxxx-", "1234 5"])
    func invalid(_ raw: String) {
        #expect {
            _ = try AccountMask.lastDigits(raw)
        } throws: { error in
            (error as? FieldError)?.id == "account.invalid"
        }
    }
}
