// The normalizers alone, each over inputs written as banks write them; one iteration is one
// call, cycling through the inputs.
import Benchmark
import SpendlexEngine

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .instructions, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .milliseconds(700),
        maxIterations: 1_000
    )

    let amounts = ["10290", "1,604.00", "99,99,999.99", "1,24,560.00", "1.234,56", "1 234,56", "3.577.000,00",
                   "50.000", ".05", "-12.00", "(12.00)", "1,000.00 CR", "Rs.569", "INR 12,345.00", "$1,250.00", "€3,20"]
    let indian = AmountNormalizer(decimalMark: .auto, country: "IN")
    Benchmark("AmountNormalizer") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try? indian.normalize(amounts[index % amounts.count]))
        }
    }

    let dates = ["2026-05-02", "02-05-26", "01-May-26", "06-SEP-26", "01Jan26", "08/MAY/2026", "17-5-2026",
                 "May 2, 2026", "Feb 1st, 2024", "14.03.2026", "29 juin 2026", "3. März 2026", "12 Agustus 2024", "2 de mayo de 2026"]
    let reference = LocalDate(year: 2026, month: 6, day: 1)
    guard let dateNormalizer = try? DateNormalizer(order: .dayMonthYear) else { fatalError("DateNormalizer") }
    Benchmark("DateNormalizer") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try? dateNormalizer.normalize(dates[index % dates.count], reference: reference))
        }
    }

    let times = ["22:26:01", "7:53 PM", "07:53:18PM", "19.53", "03:04 PM", "9:05 am", "00:00:00", "12:30"]
    Benchmark("TimeNormalizer") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try? TimeNormalizer.normalize(times[index % times.count]))
        }
    }

    let merchants = ["EAZYDINE0000000", "  CITY REALTY  on ", "AMAZON PAY INDIA.", "\"SWIGGY\"", "RAZ*SampleFood Avl Bal",
                     "Sample Remitter Inc", "UBER *TRIP", "- H&M INDIA", "TRADER JOE'S #552", "Bäckerei Müller\u{00A0}GmbH via",
                     "A.B. Traders", "VPA swiggy@icici"]
    Benchmark("MerchantNormalizer") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try? MerchantNormalizer.normalize(merchants[index % merchants.count]))
        }
    }

    // Whole alert texts, as the masker sees them before output: most have nothing to mask.
    let texts = [
        "Spent Rs.10290 On HDFC Bank Card 0000 At EAZYDINE0000000 On 2026-05-02:22:26:01.Not You? To Block+Reissue Call 18002586161/SMS BLOCK CC 0000 to 7308080808",
        "INR 1,604.00 spent using ICICI Bank Card XX0000 on 01-May-26 on ONYX BAR. Avl Limit: INR 99,99,999.99. If not you, call 1800 2662/SMS BLOCK 0000 to 9215676766.",
        "Your card 4111 1111 1111 1111 was charged $12.50 at BLUE BOTTLE. Ref IN00000000000000.",
        "Dear UPI user A/C X0000 debited by 100.00 on date 01Jan26 trf to Sample Name Refno 000000000000 If not u? call-1800111109",
        "Payment received for card 5500-0000-0000-0004 on 02/05/2026, thank you.",
    ]
    Benchmark("CardNumberMasker") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(CardNumberMasker.mask(texts[index % texts.count]))
        }
    }
}
