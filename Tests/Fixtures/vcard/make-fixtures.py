#!/usr/bin/env python3
"""Writes the vCard fixtures of VCardCharsetTests and VCardRecoveryTests, byte for byte, with Python's
codecs (so each code page's bytes are exact), and copies the small ones into the vCard fuzz seed corpus
(Fuzz/corpus/vcard, one option byte first). Run it from anywhere; it rewrites the files it owns."""
import base64, codecs, os, quopri

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "..", "..", "..", "Fuzz", "corpus", "vcard")

# (file, CHARSET as the exporter spells it, Python codec, name, address, how the value is written)
CHARSETS = [
    ("outlook-windows-1252", "Windows-1252", "cp1252", "José Müller", "jose.mueller@example.com", "8bit"),
    ("cp1252", "CP1252", "cp1252", "Zoë Ærø", "zoe@example.com", "qp"),
    ("windows-1250", "windows-1250", "cp1250", "Łukasz Żółć", "lukasz@example.pl", "qp"),
    ("windows-1251", "Windows-1251", "cp1251", "Иван Петров", "ivan.petrov@example.ru", "8bit"),
    ("windows-1253", "windows-1253", "cp1253", "Γιώργος Παπαδόπουλος", "giorgos@example.gr", "qp"),
    ("windows-1254", "windows-1254", "cp1254", "Ayşe Yılmaz", "ayse@example.com.tr", "qp"),
    ("windows-1255", "windows-1255", "cp1255", "דוד לוי", "david.levi@example.co.il", "qp"),
    ("windows-1256", "windows-1256", "cp1256", "محمد علي", "mohamed@example.eg", "qp"),
    ("windows-1257", "windows-1257", "cp1257", "Jānis Bērziņš", "janis@example.lv", "qp"),
    ("windows-1258", "windows-1258", "cp1258", "Đoàn Văn Hà", "binh@example.vn", "qp"),
    ("iso-8859-1", "ISO_8859-1", "latin-1", "François Lefèvre", "francois@example.fr", "qp"),
    ("iso-8859-2", "ISO-8859-2", "iso8859-2", "Łukasz Żółć", "lukasz.zolc@example.pl", "8bit"),
    ("iso-8859-5", "ISO-8859-5", "iso8859-5", "Иван Петров", "ivan@example.bg", "qp"),
    ("iso-8859-7", "ISO-8859-7", "iso8859-7", "Γιώργος Νικολάου", "nikolaou@example.gr", "qp"),
    ("iso-8859-9", "ISO-8859-9", "iso8859-9", "Ayşe Yıldız", "yildiz@example.com.tr", "qp"),
    ("iso-8859-15", "ISO-8859-15", "iso8859-15", "Œdipe Sévère €", "oedipe@example.fr", "qp"),
    ("koi8-r", "KOI8-R", "koi8-r", "Наталья Смирнова", "natalia@example.ru", "8bit"),
    ("koi8-u", "KOI8-U", "koi8-u", "Тарас Їжак", "taras@example.ua", "qp"),
    ("shift-jis", "Shift_JIS", "shift_jis", "山田太郎", "yamada@example.jp", "qp"),
    ("x-sjis", "x-sjis", "shift_jis", "田中花子", "tanaka@example.jp", "8bit"),
    ("sjis", "SJIS", "shift_jis", "高橋一郎", "takahashi@example.jp", "qp"),
    ("euc-jp", "EUC-JP", "euc_jp", "佐藤花子", "sato@example.jp", "qp"),
    ("iso-2022-jp", "ISO-2022-JP", "iso2022_jp", "鈴木一郎", "suzuki@example.jp", "qp"),
    ("gb2312", "GB2312", "gb2312", "王小明", "wang@example.cn", "qp"),
    ("gbk", "GBK", "gbk", "张伟", "zhang.wei@example.cn", "8bit"),
    ("gb18030", "GB18030", "gb18030", "李娜𠀀", "li.na@example.cn", "qp"),
    ("big5", "Big5", "big5", "陳大文", "chan@example.hk", "qp"),
    ("euc-kr", "EUC-KR", "euc_kr", "김민준", "minjun@example.kr", "qp"),
    ("utf-16", "UTF-16", "utf-16", "Ελένη Öztürk", "eleni@example.gr", "base64"),
    ("utf-32", "UTF-32", "utf-32", "Ярослава Ünal", "yaroslava@example.ua", "base64"),
    ("utf8-alias", "UTF8", "utf-8", "Søren Kierkegård", "soren@example.dk", "8bit"),
]


def crlf(text):
    return text.replace("\n", "\r\n").encode("ascii")


def charset_card(charset, codec, name, address, how):
    raw = name.encode(codec)
    if how == "qp":
        param, value = ";ENCODING=QUOTED-PRINTABLE", quopri.encodestring(raw, quotetabs=True).replace(b"=\n", b"")
    elif how == "base64":
        param, value = ";ENCODING=BASE64", base64.b64encode(raw)
    else:
        param, value = "", raw
    return (crlf("BEGIN:VCARD\nVERSION:2.1\n") + b"FN;CHARSET=" + charset.encode() + param.encode() + b":" + value
            + crlf("\nEMAIL;PREF;INTERNET:" + address + "\nEND:VCARD\n"))


FILES = {}
for file, charset, codec, name, address, how in CHARSETS:
    FILES["charset-" + file + ".vcf"] = charset_card(charset, codec, name, address, how)

# vCard 2.1 with 8-bit text and no CHARSET: Outlook's Windows-1252, a Russian phone's KOI8-R, and UTF-8.
FILES["v21-8bit-windows-1252.vcf"] = (crlf("BEGIN:VCARD\nVERSION:2.1\nN:") + "Müller;José".encode("cp1252")
    + crlf("\nFN:") + "José Müller".encode("cp1252") + crlf("\nEMAIL;PREF;INTERNET:jose@example.com\nEND:VCARD\n"))
FILES["v21-8bit-koi8-r.vcf"] = (crlf("BEGIN:VCARD\nVERSION:2.1\nFN:") + "Наталья Смирнова".encode("koi8-r")
    + crlf("\nTEL;CELL:+7 912 345 67 89\nEMAIL;INTERNET:natalia@example.ru\nEND:VCARD\n"))
FILES["v21-8bit-utf-8.vcf"] = (crlf("BEGIN:VCARD\nVERSION:2.1\nFN:") + "Zoë Ærø".encode("utf-8")
    + crlf("\nEMAIL;INTERNET:zoe@example.dk\nEND:VCARD\n"))

# A whole file in UTF-32 with its byte-order mark.
FILES["utf-32-file.vcf"] = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ярослава\r\nEMAIL:yaroslava@example.ua\r\nEND:VCARD\r\n".encode("utf-32")

# An unknown CHARSET: that property is skipped, the contact and the file are not.
FILES["charset-unknown.vcf"] = crlf("""BEGIN:VCARD
VERSION:2.1
FN;CHARSET=X-UNHEARD-OF:Alice
N:Liddell;Alice
EMAIL;INTERNET:alice@example.com
END:VCARD
""")

# KAddressBook 4 writes instant-messaging accounts under names with a '/'.
FILES["kaddressbook-x-messaging.vcf"] = crlf("""BEGIN:VCARD
VERSION:3.0
CLASS:PUBLIC
EMAIL;TYPE=PREF:anna.schmidt@example.de
FN:Anna Schmidt
N:Schmidt;Anna;;;
X-messaging/twitter-All:anna_schmidt
X-messaging/xmpp-All:anna@jabber.example.de
X-KADDRESSBOOK-X-IMAddress:anna@jabber.example.de
UID:Zx4Ka1bq9E
END:VCARD
BEGIN:VCARD
VERSION:3.0
EMAIL:klaus.weber@example.de
FN:Klaus Weber
N:Weber;Klaus;;;
END:VCARD
""")

# An FN whose colon was lost (hand-edited): N gives the label.
FILES["fn-without-colon.vcf"] = crlf("""BEGIN:VCARD
VERSION:3.0
FN Peter Jansen
N:Jansen;Peter;;;
EMAIL;TYPE=INTERNET:peter.jansen@example.nl
END:VCARD
""")

# A 2.1 PHOTO cut off mid-value: its base64 lines are unfolded (as old Nokia and Outlook exports write
# them) and the last is cut; the blank line 2.1 puts after base64 is missing too.
FILES["truncated-photo.vcf"] = crlf("""BEGIN:VCARD
VERSION:2.1
N:Virtanen;Mikko
FN:Mikko Virtanen
PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAYEBQYFBAYGBQYHBwYICxIMCwoK
CxcQEQ0SGxccHBoXGhkdISokHR8oIBkaJTIlKCwtLy8vHSM0ODQuNyouLy7/2wBDAQcH
BwoICxQMDBQuHhoeLi4uLi4uLi4u
EMAIL;INTERNET:mikko.virtanen@example.fi
TEL;CELL:+358 40 123 4567
END:VCARD
BEGIN:VCARD
VERSION:2.1
N:Korhonen;Aino
EMAIL;INTERNET:aino.korhonen@example.fi
PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABA*cut*
END:VCARD
""")

# Android's 2.1 exporter: a value ending in '\\' continues on the next line (a multi-line street).
FILES["android-21-backslash.vcf"] = crlf("""BEGIN:VCARD
VERSION:2.1
N:Kowalski;Jan;;;
FN:Jan Kowalski
TEL;CELL:+48 600 700 800
ADR;HOME:;;ul. Dluga 5\\
m. 12;Krakow;;30-001;Poland
EMAIL;HOME:jan.kowalski@example.pl
END:VCARD
BEGIN:VCARD
VERSION:2.1
N:Nowak;Ewa;;;
FN:Ewa Nowak
NOTE:ends in a backslash\\
EMAIL;HOME:ewa.nowak@example.pl
END:VCARD
""")

# vCard 2.1's AGENT with the agent's card inline, and 3.0's escaped in the value.
FILES["agent-nested.vcf"] = crlf("""BEGIN:VCARD
VERSION:2.1
N:Lindqvist;Erik
FN:Erik Lindqvist
AGENT:
BEGIN:VCARD
VERSION:2.1
N:Berg;Sara
EMAIL;INTERNET:sara.berg@example.se
END:VCARD
EMAIL;INTERNET:erik.lindqvist@example.se
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Olof Berg
AGENT:BEGIN:VCARD\\nFN:Sara Berg\\nEMAIL:sara.berg@example.se\\nEND:VCARD
EMAIL:olof.berg@example.se
END:VCARD
""")

# Comment lines (hand-kept files, some KDE tools).
FILES["comments.vcf"] = crlf("""# exported by hand, 2019
BEGIN:VCARD
VERSION:3.0
# work address below
FN:Hannah Meier
EMAIL;TYPE=WORK:hannah.meier@example.ch
END:VCARD
""")

# tel: URIs (RFC 6350's own example, with ext=) and a SIP address in TEL.
FILES["tel-uri.vcf"] = crlf("""BEGIN:VCARD
VERSION:4.0
FN:Jane Doe
TEL;VALUE=uri;PREF=1;TYPE="voice,home":tel:+1-555-555-5555;ext=5555
TEL;VALUE=uri;TYPE=home:tel:+33-01-23-45-67
TEL:sip:jane.doe@example.com
EMAIL:jane.doe@example.com
END:VCARD
""")

for name, data in FILES.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
    # The fuzz target reads one option byte first (bit 0: --phones).
    with open(os.path.join(corpus, name[:-4]), "wb") as f:
        f.write(b"\x01" + data)
print(f"{len(FILES)} fixtures")
