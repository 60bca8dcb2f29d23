import XCTest
@testable import PwnVaultCore

final class BreachCatalogTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pwnvault-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    static let sample: [Breach] = [
        Breach(name: "Adobe", title: "Adobe", domain: "adobe.com", breachDate: BreachDay(year: 2013, month: 10, day: 4),
               addedDate: Date(timeIntervalSince1970: 1_386_115_200), pwnCount: 152_445_165,
               descriptionHTML: "In October 2013…", dataClasses: ["Email addresses", "Passwords"], isVerified: true),
        Breach(name: "LinkedIn", title: "LinkedIn", domain: "linkedin.com", breachDate: BreachDay(year: 2012, month: 5, day: 5),
               addedDate: Date(timeIntervalSince1970: 1_463_900_000), pwnCount: 164_611_595, isVerified: true),
        Breach(name: "Eacute", title: "Élan Café", domain: "www.elan.example", breachDate: BreachDay(year: 2020, month: 1, day: 1),
               pwnCount: 1_000),
        Breach(name: "NoDate", title: "zeta list", domain: "", pwnCount: 164_611_595, isSpamList: true),
    ]

    func cache(maxAge: TimeInterval = BreachCatalogCache.defaultMaxAge) -> BreachCatalogCache {
        BreachCatalogCache(directory: folder.appendingPathComponent("cache/pwnvault"), maxAge: maxAge)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    // MARK: catalog

    func testLookupByNameIgnoresCase() {
        let catalog = BreachCatalog(breaches: Self.sample, fetchedAt: Date())
        XCTAssertEqual(catalog.breach(named: "adobe")?.domain, "adobe.com")
        XCTAssertEqual(catalog.breach(named: "LINKEDIN")?.pwnCount, 164_611_595)
        XCTAssertNil(catalog.breach(named: "Nope"))
    }

    func testResolveJoinsTruncatedResultsAndKeepsUnknownNames() throws {
        let catalog = BreachCatalog(breaches: Self.sample, fetchedAt: Date())
        let truncated = try JSONDecoder().decode([Breach].self, from: Data(#"[{"Name":"LinkedIn"},{"Name":"BrandNew2031"}]"#.utf8))
        let resolved = catalog.resolve(.breached(truncated))
        XCTAssertEqual(resolved.map(\.name), ["LinkedIn", "BrandNew2031"])
        XCTAssertEqual(resolved[0], Self.sample[1])
        XCTAssertEqual(resolved[1], .placeholder(named: "BrandNew2031"))
        XCTAssertEqual(resolved[1].title, "BrandNew2031")
        XCTAssertEqual(catalog.resolve(["adobe", "Gone"]).map(\.title), ["Adobe", "Gone"])
        XCTAssertEqual(catalog.resolve(AccountLookup.clean), [])
    }

    func testSearchAndSort() {
        let catalog = BreachCatalog(breaches: Self.sample, fetchedAt: Date())
        XCTAssertEqual(catalog.search(BreachQuery(sort: .date)).map(\.name), ["Eacute", "Adobe", "LinkedIn", "NoDate"])
        XCTAssertEqual(catalog.search(BreachQuery(sort: .size)).map(\.name), ["LinkedIn", "NoDate", "Adobe", "Eacute"],
                       "equal sizes are ordered by name")
        XCTAssertEqual(catalog.search(BreachQuery(sort: .name)).map(\.name), ["Adobe", "Eacute", "LinkedIn", "NoDate"])
        XCTAssertEqual(catalog.search(BreachQuery(search: "cafe")).map(\.name), ["Eacute"], "accents are ignored")
        XCTAssertEqual(catalog.search(BreachQuery(search: "LINKED")).map(\.name), ["LinkedIn"])
        XCTAssertEqual(catalog.search(BreachQuery(search: "adobe.com")).map(\.name), ["Adobe"])
        XCTAssertEqual(catalog.search(BreachQuery(domain: "ELAN.example")).map(\.name), ["Eacute"])
        XCTAssertEqual(catalog.search(BreachQuery(domain: "www.adobe.com")).map(\.name), ["Adobe"])
        XCTAssertEqual(catalog.search(BreachQuery(search: "  ")).count, 4)
        XCTAssertEqual(catalog.search(BreachQuery(search: "adobe", domain: "linkedin.com")), [])
    }

    func testStaleness() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertFalse(BreachCatalog(breaches: [], fetchedAt: now - 3600).isStale(now: now, maxAge: 86_400))
        XCTAssertTrue(BreachCatalog(breaches: [], fetchedAt: now - 86_401).isStale(now: now, maxAge: 86_400))
        XCTAssertTrue(BreachCatalog(breaches: [], fetchedAt: now + 86_400).isStale(now: now, maxAge: 86_400),
                      "a catalog from the future means the clock moved: refresh")
    }

    // MARK: cache

    func testSaveIsPrivateAndLoadsBack() throws {
        let cache = cache()
        XCTAssertNil(cache.load())
        let catalog = BreachCatalog(breaches: Self.sample, fetchedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try cache.save(catalog)
        XCTAssertEqual(cache.load(), catalog)
        XCTAssertEqual(try mode(cache.directory.path), 0o700)
        XCTAssertEqual(try mode(cache.fileURL.path), 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        XCTAssertEqual(leftovers, ["breaches.json"], "no temporary file is left behind")
        // The file is HIBP's own shape, readable by anything that reads the API.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: cache.fileURL)) as? [String: Any]
        XCTAssertEqual(json?["format"] as? Int, 1)
        XCTAssertEqual(json?["fetchedAt"] as? String, "2023-11-14T22:13:20Z")
        XCTAssertEqual(((json?["breaches"] as? [[String: Any]])?.first)?["Name"] as? String, "Adobe")
    }

    func testSaveReplacesAndTightensAnOpenFolder() throws {
        let cache = cache()
        try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try cache.save(BreachCatalog(breaches: Self.sample, fetchedAt: Date(timeIntervalSince1970: 1)))
        try cache.save(BreachCatalog(breaches: [Self.sample[0]], fetchedAt: Date(timeIntervalSince1970: 2)))
        XCTAssertEqual(cache.load()?.breaches.map(\.name), ["Adobe"])
        XCTAssertEqual(try mode(cache.directory.path), 0o700)
    }

    func testSymlinkedFolderIsRefused() throws {
        let real = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let cache = BreachCatalogCache(directory: link)
        XCTAssertThrowsError(try cache.save(BreachCatalog(breaches: [], fetchedAt: Date()))) {
            XCTAssertEqual($0 as? BreachCatalogError, .unsafeCacheDirectory(path: link.path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: real.appendingPathComponent("breaches.json").path))
    }

    func testDamagedCacheCountsAsNone() throws {
        let cache = cache()
        try cache.save(BreachCatalog(breaches: Self.sample, fetchedAt: Date()))
        try Data("{\"format\":1,\"fetchedAt\":".utf8).write(to: cache.fileURL)
        XCTAssertNil(cache.load())
        try Data(#"{"format":99,"fetchedAt":"2023-11-14T22:13:20Z","breaches":[]}"#.utf8).write(to: cache.fileURL)
        XCTAssertNil(cache.load(), "an unknown format is not guessed at")
    }

    func testFreshCacheIsUsedAndStaleOneRefreshed() async throws {
        let cache = cache()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let fetches = Counter()
        let first = try await cache.catalog(now: t0) { fetches.increment(); return Self.sample }
        XCTAssertTrue(first.fetched)
        XCTAssertEqual(first.catalog.breaches, Self.sample)

        let second = try await cache.catalog(now: t0 + 3600) { fetches.increment(); return [] }
        XCTAssertFalse(second.fetched)
        XCTAssertEqual(second.catalog.breaches, Self.sample)
        XCTAssertEqual(fetches.value, 1)

        let forced = try await cache.catalog(now: t0 + 3600, forceRefresh: true) { fetches.increment(); return [Self.sample[1]] }
        XCTAssertTrue(forced.fetched)
        XCTAssertEqual(forced.catalog.breaches.map(\.name), ["LinkedIn"])

        let stale = try await cache.catalog(now: t0 + 3600 + 86_401) { fetches.increment(); return [Self.sample[0]] }
        XCTAssertTrue(stale.fetched)
        XCTAssertEqual(cache.load()?.breaches.map(\.name), ["Adobe"])
        XCTAssertEqual(cache.load()?.fetchedAt, t0 + 3600 + 86_401)
        XCTAssertEqual(fetches.value, 3)
    }

    func testFailedRefreshFallsBackToTheStaleCopy() async throws {
        let cache = cache()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try cache.save(BreachCatalog(breaches: Self.sample, fetchedAt: t0))
        let load = try await cache.catalog(now: t0 + 2 * 86_400) { throw HIBPError.unavailable }
        XCTAssertFalse(load.fetched)
        XCTAssertEqual(load.refreshFailure, .unavailable)
        XCTAssertEqual(load.catalog.breaches, Self.sample)

        let empty = BreachCatalogCache(directory: folder.appendingPathComponent("none"))
        do {
            _ = try await empty.catalog(now: t0) { throw HIBPError.timeout }
            XCTFail("without a cached copy the failure must surface")
        } catch { XCTAssertEqual(error as? HIBPError, .timeout) }
    }

    /// Unchecked: its mutable state is only touched with `lock` held.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func increment() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }
}
