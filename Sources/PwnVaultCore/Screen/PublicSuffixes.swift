/// A compact, built-in excerpt of the Public Suffix List (publicsuffix.org, ICANN section): the common
/// public suffixes of two labels, so `mail.example.co.uk` masks as `e•••.co.uk` and not `c•••.uk`.
///
/// A suffix missing here only costs precision: the mask then treats the last label as the suffix and
/// shows the first character of the second-level label, still one character. It never reveals more.
enum PublicSuffixes {
    static let multiLabel: Set<String> = [
        // United Kingdom
        "co.uk", "org.uk", "ac.uk", "gov.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk", "sch.uk", "nhs.uk", "police.uk",
        // Australia, New Zealand
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.nz", "net.nz", "org.nz", "ac.nz", "govt.nz", "school.nz", "geek.nz",
        // Japan, Korea, China, Hong Kong, Taiwan
        "co.jp", "ne.jp", "or.jp", "ac.jp", "ad.jp", "ed.jp", "go.jp", "gr.jp", "lg.jp",
        "co.kr", "ne.kr", "or.kr", "re.kr", "ac.kr", "go.kr",
        "com.cn", "net.cn", "org.cn", "edu.cn", "gov.cn", "ac.cn",
        "com.hk", "net.hk", "org.hk", "edu.hk", "gov.hk", "idv.hk",
        "com.tw", "net.tw", "org.tw", "edu.tw", "gov.tw", "idv.tw",
        // South and South-East Asia
        "co.in", "net.in", "org.in", "firm.in", "gen.in", "ind.in", "ac.in", "edu.in", "gov.in", "res.in",
        "com.sg", "net.sg", "org.sg", "edu.sg", "gov.sg",
        "com.my", "net.my", "org.my", "edu.my", "gov.my",
        "co.id", "or.id", "ac.id", "web.id", "go.id",
        "com.ph", "net.ph", "org.ph", "edu.ph", "gov.ph",
        "co.th", "in.th", "ac.th", "go.th", "or.th",
        "com.vn", "net.vn", "edu.vn", "gov.vn",
        "com.pk", "net.pk", "org.pk", "edu.pk",
        // Americas
        "com.br", "net.br", "org.br", "edu.br", "gov.br",
        "com.mx", "net.mx", "org.mx", "edu.mx", "gob.mx",
        "com.ar", "com.co", "com.pe", "com.ve", "com.ec", "com.uy", "com.py", "com.bo",
        // Africa, Middle East
        "co.za", "org.za", "net.za", "web.za", "ac.za", "gov.za",
        "com.ng", "org.ng", "edu.ng", "co.ke", "or.ke", "ac.ke",
        "com.eg", "com.sa", "co.il", "org.il", "net.il", "ac.il", "gov.il",
        // Europe
        "com.tr", "net.tr", "org.tr", "edu.tr", "gov.tr", "gen.tr", "biz.tr",
        "co.at", "or.at", "ac.at", "gv.at",
        "com.pl", "net.pl", "org.pl", "com.ua", "com.gr", "com.es", "org.es", "nom.es", "com.pt",
    ]
}
