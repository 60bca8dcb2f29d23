import Foundation
import XCTest
@testable import PwnVaultCore

/// The byte-level vector of Docs/VAULT_FORMAT.md appendix A. The expected values were produced by the
/// spec's independent reference encoder (appendix B: Python, libsodium through ctypes, BLAKE2b from
/// hashlib), not by this Swift code.
final class VaultFormatVectorTests: XCTestCase {
    // MARK: Inputs (appendix A)

    static let passphrase = Array("correct horse battery staple".utf8)
    static let vaultKey = [UInt8](0x00...0x1f)
    static let salt = [UInt8](0xa0...0xaf)
    static let vaultID = [UInt8](0xb0...0xbf)
    static let wrapNonce = [UInt8](0xc0...0xd7)
    static let payloadNonce = [UInt8](0xe0...0xf7)

    static let json = """
        {"accounts":[{"addedAt":"2024-05-01T12:34:56.789Z","entered":"Alice@Example.com","id":1,"kind":"email",\
        "label":"work","normalized":"alice@example.com","result":{"breaches":["Adobe","LinkedIn"],\
        "checkedAt":"2024-05-02T08:00:00.000Z","pasteCount":0,"status":"breached"}},{"addedAt":"2024-05-03T00:00:00.001Z",\
        "entered":"+44 7700 900123","id":2,"kind":"phone","normalized":"+447700900123","result":{"breaches":[],\
        "status":"never-checked"}}],"nextID":3,"schema":1}
        """

    /// The payload the JSON above describes, built from Swift values.
    static var payload: VaultPayload {
        VaultPayload(schema: 1, nextID: 3, accounts: [
            Account(id: 1, entered: "Alice@Example.com", normalized: "alice@example.com", kind: .email, label: "work",
                    addedAt: date(2024, 5, 1, 12, 34, 56, 789),
                    result: CheckResult(status: .breached, checkedAt: date(2024, 5, 2, 8, 0, 0, 0),
                                        breaches: ["Adobe", "LinkedIn"], pasteCount: 0)),
            Account(id: 2, entered: "+44 7700 900123", normalized: "+447700900123", kind: .phone, label: nil,
                    addedAt: date(2024, 5, 3, 0, 0, 0, 1)),
        ])
    }

    // MARK: Expected values (appendix A)

    static let expectedKEK = "26995e5466d39be7d873e16782c02b073c718664e4dab83edaa7ef6d93fbc61b"
    static let expectedHeaderMACKey = "5f6c5ecc0a663ce18d36b17a5a1b79cda229870b773463ebe560ead125f408a1"
    static let expectedPayloadKey = "339eefbf6b6764f4754796d3b1d61b3df6e352fddc96e26491dfde8c705484a9"
    static let expectedFileHash = "493c6829e8be779c5fdb9e7d2ba21a6e7b54d9207c581b499e298b282ee3468f"
    static let expectedFile = """
        50574e5641554c54000100000100000000000000000000020000000004000000a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf
        c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7445d9132f9f6169c07aa5dce0f24e60d9973e16b5df1cc37f37ff8d239b89e492ebe944c0eafeb0c
        04933db34499b7e7e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f70000000000001010184fed0bdec01eae227bb382bdc0f6b6850ef63a072eb933
        f1b8833d4ba1a39643de5abc47ff19a42d0b71302c7bc89e6c871b268ca258e071eceac46230c166a273111f159f6c5fea616272ae9a7bfa2021d63adc720342
        296afad72aea8d6413f5d1a8735b0a6acb94c8a7eb39bba7fde30a55d2ef59c7909c7a2119cbf16f920d2db1fe8a43a2d69d25078753c9fd9a3077e8742b32a4
        9a2ca67a32ec113d99e3ee40778ecea3a13edc98982c3d1b179ad328a55599b3774d63384c0974dacbe9e7028782676139e84443564815584f8326ee4323bc4b
        453a1486288f9120f832e69bea4683cb4e952a923eed00194335ff7c34e9dfa3123065abcbaccecf4b0b4b6098051598c9dc3917dc195a1c1aeadba20f6d6cc2
        406dd4f6f0eba7fdaf9dce86034849a054d524b882d2a7229e5c8a3f8de5aba43080a8fc04d63d66b5916a17ad2c82d1ae6a0dc98aa478f954c6872d76813937
        87d0ff35f2865965ac0948cea915b7bae78483e761b89b0830d8394a46bc2075651e974f1f2745a8502fbe1827102fd45f98a8d1bb1c93b80f707da40cce9238
        f593c753e2911f079e017ba965d30bce05cc6329303c3dc7c3cc1057cb3532663cd0be4e0e9ae091017b246d0e2c0f7a864b2866c602c9a75ccba62e7bcda490
        a85cb2fcb4f014d975ef8283f13a185283d9e08ae9eb71f79f80a3e48dc18310d7965cb8491740a4bc3a08ece0b7af86644427de79f7c0d94582cf309b250834
        ca3c1fbdc030e2df9f5cf85468e30e7aec1c4219ddabdbd1f1402ac8b7da962600ce93c94a17a4fd98b7ece791652cf897bc8b7dec293854491ccd2c4c3fbb79
        8845d5d11fd620392734527126e225afb401c5700c2f055ea1fd1331bc8b0a0c31e67d2109113709d7b3d5057e2f458b7679d5859b02493377605b031d53bdb5
        81ab1d3ef72dcfb543a48805b2a83bd71576629ab2bf3c3649069bdc101ffb4c09394bd80ffc977b14adb17026277e70079abb91703d41b11fec4924edd19ea9
        8d5201bda91292f007c8e30438fda440170abb62e8fdc434e8d2bbbf9a72d789213bd5e481eb73f825526c389d66cd0a02e2d3108110785810e1ae9fb82438dc
        716c1860bb11c5822783783f3a43a789260cdd65d180fc17c08599821b1b6ef8ade02f7eaa52b85b663b66683fbca6471638e1eb1d17a59ebddc8442f633ef28
        e205dbe1a1f68b6eefdbe532147fcb1bf93ff5e05728747a28baebc51be3d3cfa9d369e993329f0443d7fe090aa9e3c7e6647ffefa91518aab591f7dfaa9b2f3
        f6a4716350bdd9e32c00f2a3d4120c5fbe5aae89c63f44ff9f29bb5664359c9c410f811935cbcb3458a950a2b9bb419608b61d7b412df49ec528c331cf3345ae
        5cadfb69861e832f369316187c5fd1809e829e3642236ff77961a18263146b0c1153e374c411cc9d324a2dabf911077558f67141a9920a363e312c3cbe7efe98
        091343c4c042694d4a5fb059e8f3e1c655c4a577be83040b3398da49cee582699aa962d5e6be50a49e67f7fb72f50e495257bf098bf7331595f4ab5c0f61c461
        a1e8256bbd93fc10a4a5c4f5a66b0a68c02ffae5618037fb20aefc977aa544cc8b4d77f605489998c326c5a5d1aa56c5ebd2e469ea715a023909f02596e9b02e
        76c9e22dcf233cfecebfa3d928b00818944d656fe34e39704e495020ca6ffd95b57d57ac88542af0f147dfd5fb206bdf3165496ff40ee223e072ce273da17b24
        76f0cf50b9f9a311983a4a8f68c63629e1fa5dfe007f9c63a1025e190df86bfd8106788565b94b3b8361ed6b26ab94e9047427e9e323f672a43100b23b796efb
        70a2b628f909a0412237b6f521395481379bb123e12fdd3fe0c6ce9b3be31fd369cf7c9f9a0cc42680441cb94c85e4a3c43939f28a18994f1646ea853a6f4740
        668ec9fc70e421c7fe92b55fe884c9bddcef16f02269bb0d71a09ffe614e52b1f912ad6fc636c583f4663df65be9d8850a54d2ceab86d7c8921fc9895b782a5b
        3960b47c94c06a5e92ae2b1b74b13fc939153073e79f4d81cd8113c91ed292273319c505b37ed84c973e352b6ba8c79267228d300d7c2ef3f9c097b4d4ce207d
        fa7323807925703ed25eac1408d55a19a2942d3fcb2a2bdf244e7386e5d2d74528d35f5ea7b71e58a6452b2bff7da03daed4c408ff2a427fab820a6954054072
        829a876bb56abda43e8a2091b1abf8003ae32845e526cfcfd34d8bc12ba149d2d80eacdf2916041767d77dc6660daa2e01f4f971eaf098cbcdb3b9ee7870f459
        2bb06786b05bf985e343eeeeb3c1abf930945574f9a703db977d06ffebe30f0fb284d86c242c1d6bd2fc29dea609f900059b897561260ce37f91ac3e7ccaaad8
        1fc109f55aeffaba8b5929e967c988d59f54255f00cc829ca758ed21aeff0faa10fa034a9c946787f03fd14d3f15af8b47c91241604a6b8d007c093e3120d11d
        cfac8d37bdb89f31026bd19c5de552a05a3ce1f737b4fbdb439945bdbd942da660a3a1102340387e28926fde2a9dff08270cf4ca265cddd9899b901e8ac1b2f3
        79de8d0660b54bde29421ec61cfff655735ef4db97b607e0abbf06e5fb7b2a5ab3f4e001503b838a462d8321c3ed469930a1ec69a9a920780c761c58b010918a
        60bd5b16af209741e47b48ba71cab62223a50bbaf0d538cc68cda491af1e1fd7f8e6355d5526c8a6c454d0c34b41f1503ac185794a97a928e6e71a8f4bdc7558
        6fa8aa396462b11b94b28f2735aedb918d1838f4b3fc8864b5123e5bed2088e17e576d021860fc00ad783613bfee6d400238846c79b27db390c9c2774716a88e
        513fc3d10865ddac24cee1cc142064b35582bf7bbb804ee667489b38918354317653b24c249be5cfbf999afda1731e87ba845ac219adcf715562a24974351213
        bf6033b5a6471775e576882e7c4067498ad1c353ad5e04e6644db2639d68f6d014f6277b31b4e6a88c20b57a4a88b58c9bbb512392b906bb6aaf7c9dc1b73bb3
        08e9207147be225c9bfde29fe43ad3e52f18cbee4249514ebd3056c068d26742f511e5d2f7c154526bec71f147b8d439a462618d6afeb07e7c50f8f29b588435
        c680c7e2fe0f5c6021d1fc06cf65bc2307163f7704fd4322e6cc440695119b36d2306bb002d8a44fa41c73c72f86f4529d179fff3cea71d987934a548662ab39
        4f728857decbccbfd39ffc8fe31286800c0ef2450e424a0ebb746a2f758141828a55b4bf11a684d45740426220a1b4786ba92c74207072da18b09512572cbb77
        d3bc8e5617c814c759954b82be48b8d2b237340f2df92a55778054b88f5f4b29fbe03b781662fd4275161d9631b0e13046111ef95e8a9a22c72c3ac8179bdcf3
        21d9e5c0b1753f395f05fa647d5d32b1ee885cd3897c394b04cb7b9e95e1db8d64e6b2b15fa268ffa73ff063199f22f08fd0e314aa3c04877d58de6edfc33a69
        5ee02b0a226201928a5c0f436da6eb78d7723e86d710779c6d0af74b3ae35bc8242806d37a8605a4554d388b3e4c3d535cfdae8b25914b03bd8950f3b890f7cc
        54ddf67792b9ed04d0ac30edeed822f9e2db262068ae38f7eb67548f7affffb8e3bf75003b1066168142f229ee6b49f9319e399ab719f5ff9a5c2d3a79c87f30
        15192b7f27c869de8541a51a23c23aef32674444a2e96ba65cd387feea366687da53545b49629ee3aa6f5b586d08cf38955aeac820f3ff0864775324206acaa3
        f269641899bc4d26211cad50b34144cd47b0de16377c05217aac143b14fcef27d08713c57a733e0676cb4441417f826bb08487a8b7730bd7f80aa6d2b7b3f21f
        59dfaca535e490df82e8b9d62df9665070500981f5f2e88a0f8f2b859e2e8a003cb0a69f7006616cd79c61cd63083b9576f72d5ff0814a59062038f5b0f16532
        48759d949ca950d365f10cd527a71a02fa4be1870e42e23c47e068db7b272d9d031c94d9188a49689a41f233d320450181f1493e01709632193661669b58176b
        d8eebfb894633b2bde71e14fbaa223ef3ad5bc422402184766b7c5f704b7ca148687cf19942c95f5bbc3cf8b0e4f7450b76bfe2aa853a2d228c36b2cb103d85e
        e263cc38ff98d62889ea8f695c71e324ae9d21b7a6a1fe692c7684b4b2f5927d016c6e392bedb01c1860fafe9930125783afd50c733a8d736333cb0933da3c1f
        013c0f4b277d603cf46d6e6ca13e6c5eb9583f1e2fee39ad4a014914399474abe3abd38b5cb8e799834acec96daeb8b3c015d5b6e7a2a8256b56521463d2be10
        82b3c460268ea365b71191fe1745f35f1e73303a9c1148880f61ea1a6e7437d267fe0c1eb8d7e6df21a474d9e1a704548a9b7cf48fa06a77acc7eb9ed7f7695e
        05a43a9d5b5797faaaa76ad414909e3acbeacaaef8aa8555885db78019d96f1c5e47d498f593e4c0d8be4aa5804a1f804209d61dba43f6bccc9cbc87d014ff58
        e3017c28f7fa241d53c2913d6c3b09da37e76f4757d64c576929e06ff4ec14bd95619e3b41c4f2046f473997854d9ff6b36de1fca6c6741d70ecdc57e17f2a41
        176d3c44980192a01611549cb69096f444ab411c81a57b441c2ebdfc729b22cb6bee0d061863188f86604fb1d33f8a0bcb50134914952583ad3110d4aa1e5e20
        973e65d7450810f5f80ec61a959995ff2d5fad1070de0eebb00bcd4af8840d1cb17afa8e733e7ed58d447d42491cf0e7e141470c75ca91518cd03146115bf757
        bc8813986463877542ab436abf821900fc3fda301c4b3d72afe933adf5ea3f218662e816597d616f73e9f607de2cc12d4af87e33891f0d804e757d850a309937
        968ebf403b6b440e1829e842d03689cd82ea215240d9f7f036d9568a930bebc03b234f3e97ad2309a1665435f9913ace0c756b3655ca6287722153bc088a6c7d
        259121dbb3ae441ab246fd1e02e2d379f3789dc947ee62b15868fd38aa13467c1e16ed405dab33410eb0105d33581555794c77c1e564b5780f7a0378e6a8c286
        9262f7c20c7f5b89417fefb0b3fee013b4d6f6594dc59814d818856eac4ddd12ff7e17fabf7f612f337a8c4a9fbb3f7c89438bb7161a96e7e16b8ed08bae0698
        5855f0d0be475cd5d095a1de849c18f432bdc9b86f91c5e827794ba01c8af51040c4556b5d0abd03a1649d324e55ccd9ff956ca405a825e8d8a301f4badf349a
        92bb04234a63bfe9de17a601ab6ae33f619e0b107a6e94ecc08ecd9e7e4f62fc45920a48ad9ea3b6f2f530d1cd4d6760a836cc2733f61aeb1846128826a70185
        8be8415116c89e40e9465c3dd623d37ac1ab001f27fd618c022a05fd7dbcf0ccc20daa19acd14cbbcf8115fb98861a7137cce7ce1d08e45c2c50010611cf0e22
        d05edfe90325705d09e11a3654abd6617643139acf7b23d49f693cae0784753282dbfbc02cf500d96ac5617422959df9379ccf993986a9ff454b0a7f72a01391
        8e4f3c53c907c486aa1e51fb0e07ce851c4d7b0002b80b3ea76214a73d39ad586905eb7a7fcf9f15eb37b8d7c628356afcd3efb301d49383834d9069e6807d5a
        f241f1a4e87d1d17e3843a9644dfcd92d56202705aabc38d9d9db916bebd5e7abd1d3fa842e31ad65181a0e4bad13c991d0b2bf6b852887fa8192483ed8f9c2f
        e73eed2579f6b2d021f26bb55fb5e4ebb5d7c006aac773a4b52070d33d1489a3bfd63bb866535f78bb4ebab684d68483fc881723ff05aef0fceff259cce698d0
        dafce41fd38784ae12da5d3caf1b03605cc4a6c7e60151c0ddbcf50fcb82cb297eb5ccc47f45c67706af7ad327008e52a236c1299ac943beb728e04f7f7a71ab
        e0f03aae8f31a685485ec9515938f152a6e8132f0fbc9f80
        """

    // MARK: Tests

    func testKeyDerivationsMatchTheSpec() throws {
        let kek = try XCTUnwrap(Sodium.deriveKey(passphrase: SecretBytes(copying: Self.passphrase), salt: Self.salt,
                                                 opslimit: 2, memlimit: 64 << 20))
        XCTAssertEqual(kek.hex, Self.expectedKEK)
        let key = SecretBytes(copying: Self.vaultKey)
        XCTAssertEqual(Sodium.deriveSubkey(from: key, id: 1, context: "PWNVAULT").hex, Self.expectedHeaderMACKey)
        XCTAssertEqual(Sodium.deriveSubkey(from: key, id: 2, context: "PWNVAULT").hex, Self.expectedPayloadKey)
    }

    func testCreateWithTheVectorInputsWritesTheExpectedBytes() throws {
        let created = try Self.createVector()
        let expected = [UInt8](hex: Self.expectedFile)
        XCTAssertEqual(expected.count, 4312)
        XCTAssertEqual(created.bytes.count, expected.count)
        XCTAssertEqual(Sodium.hex(Array(created.bytes.prefix(200))), Sodium.hex(Array(expected.prefix(200))), "header")
        XCTAssertEqual(created.bytes, expected, "whole file")
        XCTAssertEqual(created.bytes.withUnsafeBytes { Sodium.hex(Sodium.blake2b($0, key: nil)) }, Self.expectedFileHash)
        XCTAssertEqual(created.header.bytes, Array(expected.prefix(200)))
    }

    func testSealWithTheVectorNonceReproducesTheFile() throws {
        let expected = [UInt8](hex: Self.expectedFile)
        let key = SecretBytes(copying: Self.vaultKey)
        let header = try VaultFile.readHeader(expected)
        let resealed = try VaultFile.seal(Self.payload, header: header, key: key, payloadNonce: Self.payloadNonce)
        XCTAssertEqual(resealed, expected)
    }

    func testTheHeaderFieldsSitAtTheOffsetsOfTheSpec() throws {
        let file = [UInt8](hex: Self.expectedFile)
        XCTAssertEqual(Array(file[0..<8]), Array("PWNVAULT".utf8))
        XCTAssertEqual(Array(file[8..<16]), [0, 1, 0, 0, 1, 0, 0, 0], "version 1, flags 0, KDF id 1, reserved")
        XCTAssertEqual(Array(file[16..<24]), [0, 0, 0, 0, 0, 0, 0, 2], "opslimit")
        XCTAssertEqual(Array(file[24..<32]), [0, 0, 0, 0, 0x04, 0, 0, 0], "memlimit 64 MiB")
        XCTAssertEqual(Array(file[32..<48]), Self.salt)
        XCTAssertEqual(Array(file[48..<64]), Self.vaultID)
        XCTAssertEqual(Array(file[64..<88]), Self.wrapNonce)
        XCTAssertEqual(Array(file[136..<160]), Self.payloadNonce)
        XCTAssertEqual(Array(file[160..<168]), [0, 0, 0, 0, 0, 0, 0x10, 0x10], "L = 4096 + 16")

        let header = try VaultFile.readHeader(file)
        XCTAssertEqual(header.version, 1)
        XCTAssertEqual(header.flags, 0)
        XCTAssertEqual(header.kdfID, 1)
        XCTAssertEqual(header.kdf, .interactive)
        XCTAssertEqual(header.kdf.name, "interactive")
        XCTAssertEqual(header.salt, Self.salt)
        XCTAssertEqual(header.vaultID, Self.vaultID)
        XCTAssertEqual(header.vaultIDHex, "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf")
        XCTAssertEqual(header.wrapNonce, Self.wrapNonce)
        XCTAssertEqual(header.wrappedKey, Array(file[88..<136]))
        XCTAssertEqual(header.payloadNonce, Self.payloadNonce)
        XCTAssertEqual(header.payloadBoxLength, 4112)
        XCTAssertEqual(header.mac, Array(file[168..<200]))
        XCTAssertEqual(header.fileLength, file.count)
    }

    func testTheHeaderMACIsKeyedBLAKE2bOfTheFirst168Bytes() throws {
        let file = [UInt8](hex: Self.expectedFile)
        let macKey = SecretBytes(copying: [UInt8](hex: Self.expectedHeaderMACKey))
        let mac = Array(file[0..<168]).withUnsafeBytes { Sodium.blake2b($0, key: macKey) }
        XCTAssertEqual(mac, Array(file[168..<200]))
    }

    func testThePayloadBoxHoldsTheLengthPrefixedPaddedJSON() throws {
        let file = [UInt8](hex: Self.expectedFile)
        let payloadKey = SecretBytes(copying: [UInt8](hex: Self.expectedPayloadKey))
        var plaintext = [UInt8](repeating: 0xff, count: 4096)
        let opened = file.withUnsafeBytes { f in
            plaintext.withUnsafeMutableBytes { Sodium.open(UnsafeRawBufferPointer(rebasing: f[200...]),
                                                           nonce: Self.payloadNonce, key: payloadKey, into: $0) }
        }
        XCTAssertTrue(opened)
        let json = Array(Self.json.utf8)
        XCTAssertEqual(json.count, 460)
        XCTAssertEqual(Array(plaintext[0..<8]), [0, 0, 0, 0, 0, 0, 0x01, 0xcc], "n = 460, big-endian")
        XCTAssertEqual(Array(plaintext[8..<(8 + json.count)]), json)
        XCTAssertTrue(plaintext[(8 + json.count)...].allSatisfy { $0 == 0 }, "zero padding")
    }

    func testTheVectorOpensWithItsKeyAndItsPassphrase() throws {
        let file = [UInt8](hex: Self.expectedFile)
        let key = SecretBytes(copying: Self.vaultKey)
        let opened = try VaultFile.open(file, key: key)
        XCTAssertEqual(opened.payload, Self.payload)

        let unwrapped = try VaultFile.unwrapKey(opened.header, passphrase: SecretBytes(copying: Self.passphrase))
        XCTAssertTrue(unwrapped.isEqual(to: key))
    }

    func testTheEncodedJSONIsTheJSONOfTheSpec() throws {
        let plaintext = try PayloadCodec.encode(Self.payload)
        let json = plaintext.withUnsafeBytes { Array($0[8..<(8 + Self.json.utf8.count)]) }
        XCTAssertEqual(String(decoding: json, as: UTF8.self), Self.json)
    }

    // MARK: Helpers

    static func createVector() throws -> (bytes: [UInt8], key: SecretBytes, header: VaultHeader) {
        try VaultFile.create(passphrase: SecretBytes(copying: passphrase), kdf: .interactive, payload: payload,
                             key: SecretBytes(copying: vaultKey), salt: salt, vaultID: vaultID, wrapNonce: wrapNonce,
                             payloadNonce: payloadNonce)
    }

    /// A UTC date with millisecond precision, made without the code under test.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                     _ millisecond: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let whole = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour,
                                                       minute: minute, second: second))!
        return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + Double(millisecond) / 1000)
    }
}

extension SecretBytes {
    /// Hex of the secret, for comparing test keys with the spec's vectors. Tests only.
    var hex: String { withUnsafeBytes { Sodium.hex(Array($0)) } }
}

extension Array where Element == UInt8 {
    /// Bytes from hex, ignoring whitespace (test vectors span lines).
    init(hex: String) {
        let digits = hex.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map { Character($0) }
        precondition(digits.count % 2 == 0, "odd number of hex digits")
        self = stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...($0 + 1)]), radix: 16)! }
    }
}
