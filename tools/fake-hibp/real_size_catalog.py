#!/usr/bin/env python3
"""A breach catalog the size and shape of HIBP's real one, made up: 860 breaches.

HIBP's catalog holds about 860 breaches; layouts meet its extremes only at that size: PascalCase names
of up to 30 characters (a tax agency, a game server's monthly dump, a conference), titles of up to
about 45 columns, domains such as a cleaning company's, no domain at all for lists and stealer logs,
and every flag. Nothing here is copied from the real catalog: the words are combined by a seeded
generator, so the same file comes out every time.

    python3 tools/fake-hibp/real_size_catalog.py OUT.json [--count 860]

The fake server's own breaches (catalog.json and catalog-real-style.json, which its test accounts
name) come first; made-up ones fill the rest. The fake server loads it like any catalog:
fake_hibp.py --catalog OUT.json.
"""
import argparse
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

# Words that PascalCase names and titles are made of.
PLACES = ["Bulgarian", "Northern", "Baltic", "Coastal", "Alpine", "Prairie", "Highland", "Lakeside", "Riverside",
          "Eastern", "Western", "Pacific", "Atlantic", "Central", "Provincial", "Municipal", "Metro", "Harbour"]
THINGS = ["National", "Revenue", "Agency", "Forum", "Market", "Club", "Penguin", "Rewritten", "Developer", "Conference",
          "Cleaning", "Games", "Dating", "Radio", "Fitness", "Tickets", "Academy", "Pharmacy", "Travel", "Gaming",
          "Community", "Network", "Cloud", "Hosting", "Insurance", "Library", "Recipes", "Crypto", "Exchange",
          "Streaming", "Rewards", "Support", "Pets", "Music", "Vision", "Motors", "Kitchen", "Garden", "Outlet"]
SHORT = ["Flip", "Quill", "Ember", "Nimbo", "Vexa", "Orbit", "Kudo", "Zest", "Lumo", "Brisk", "Pixo", "Tandem", "Mosa",
         "Gleam", "Hark", "Jolt", "Roam", "Sway", "Tali", "Wren", "Yarn", "Zuri", "Arlo", "Bento", "Cove", "Dune"]
SUFFIX = ["", "", "", "Forum", "App", "Shop", "Games", "Store", "Hub", "Online", "Labs", "Portal"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
TLDS = [".com", ".com", ".com", ".net", ".org", ".io", ".co.uk", ".de", ".fr", ".ru", ".com.br", ".jp", ".pl"]
CLASSES = ["Email addresses", "Passwords", "Usernames", "Names", "IP addresses", "Phone numbers", "Dates of birth",
           "Genders", "Physical addresses", "Password hints", "Geographic locations", "Social media profiles",
           "Job titles", "Employers", "Website activity", "Purchases", "Partial credit card data", "Device information",
           "Browser user agent details", "Security questions and answers", "Auth tokens", "Spoken languages",
           "Salutations", "Time zones", "Account balances", "Historical passwords", "Government issued IDs",
           "Private messages", "Sexual preferences", "Income levels", "Credit status information", "Avatars"]


def names(rng, count):
    """`count` distinct PascalCase names of 3 to 30 characters, the longest few at 27-30."""
    made, out = set(), []

    def add(name):
        if 3 <= len(name) <= 30 and name.lower() not in made:
            made.add(name.lower())
            out.append(name)

    # The long ones that a narrow layout must still show whole.
    long_forms = [lambda: rng.choice(PLACES) + "".join(rng.sample(THINGS, 3)),
                  lambda: "".join(rng.sample(THINGS, 3)) + rng.choice(MONTHS) + str(rng.randint(2015, 2025)),
                  lambda: rng.choice(SHORT) + "".join(rng.sample(THINGS, 2)) + str(rng.randint(2015, 2025))]
    while len(out) < 12:
        name = rng.choice(long_forms)()
        if len(name) >= 27:
            add(name)
    while len(out) < count:
        r = rng.random()
        if r < 0.45:
            name = rng.choice(SHORT) + rng.choice(SUFFIX)
        elif r < 0.75:
            name = rng.choice(SHORT) + rng.choice(SHORT).lower() + rng.choice(SUFFIX)
        elif r < 0.9:
            name = rng.choice(PLACES) + rng.choice(THINGS)
        else:
            name = "".join(rng.sample(THINGS, 2)) + rng.choice(MONTHS) + str(rng.randint(2012, 2025))
        add(name)
    return out


def title(rng, name):
    """A title as HIBP writes one: the name spelt out, sometimes with a qualifier, up to ~45 columns."""
    words, word = [], ""
    for c in name:
        if c.isupper() and word and not word[-1].isdigit():
            words.append(word)
            word = c
        elif c.isdigit() and word and not word[-1].isdigit():
            words.append(word)
            word = c
        else:
            word += c
    words.append(word)
    text = " ".join(words)
    extra = rng.random()
    if extra < 0.08:
        text += " (Spam List)"
    elif extra < 0.14:
        text += " Combolist"
    elif extra < 0.2:
        text += " Stealer Logs"
    elif extra < 0.3:
        text = "The " + text + " Members Forum"
    return text[:45]


def base():
    """The fake server's own breaches (catalog.json, then catalog-real-style.json): the test accounts
    it serves name them, and they hold the real catalog's oddities."""
    out, seen = [], set()
    for file in ("catalog.json", "catalog-real-style.json"):
        with open(os.path.join(HERE, file), encoding="utf-8") as f:
            for entry in json.load(f)["breaches"]:
                if entry["Name"].lower() not in seen:
                    seen.add(entry["Name"].lower())
                    out.append(entry)
    return out


def catalog(count, seed=32):
    rng = random.Random(seed)
    breaches = base()
    taken = {b["Name"].lower() for b in breaches}
    made = [n for n in names(rng, count) if n.lower() not in taken][:max(0, count - len(breaches))]
    for i, name in enumerate(made):
        year = rng.randint(2008, 2025)
        month, day = rng.randint(1, 12), rng.randint(1, 28)
        added_year = min(2026, year + rng.randint(0, 3))
        has_domain = rng.random() > 0.12
        domain = (name.lower()[:rng.randint(6, 18)] + rng.choice(TLDS)) if has_domain else ""
        if i == 0:
            domain = "flipacleaning.com"   # a mid-length domain of the kind a narrow DOMAIN column cut
        classes = sorted(rng.sample(CLASSES, rng.randint(1, 9)) + (["Email addresses"] if rng.random() < 0.9 else []))
        classes = sorted(set(classes))
        sensitive = rng.random() < 0.04
        flags = rng.random()
        breaches.append({
            "Name": name,
            "Title": title(rng, name),
            "Domain": domain,
            "BreachDate": "%04d-%02d-%02d" % (year, month, day),
            "AddedDate": "%04d-%02d-%02dT%02d:%02d:00Z" % (added_year, rng.randint(1, 12), rng.randint(1, 28),
                                                           rng.randint(0, 23), rng.randint(0, 59)),
            "ModifiedDate": "%04d-%02d-%02dT00:00:00Z" % (added_year, 12, 1),
            "PwnCount": int(10 ** rng.uniform(2.5, 9.2)),
            "Description": "In %d, %s suffered a data breach that exposed <em>%s</em> of its members. "
                           "The data was <a href=\"https://example.org/%d\" target=\"_blank\" rel=\"noopener\">"
                           "shared on a forum</a>." % (year, name, ", ".join(c.lower() for c in classes[:3]), i),
            "LogoPath": "https://logos.haveibeenpwned.com/%s.png" % name,
            "Attribution": None,
            "DisclosureUrl": None,
            "DataClasses": classes,
            "IsVerified": flags > 0.06,
            "IsFabricated": 0.06 < flags < 0.07,
            "IsSensitive": sensitive,
            "IsRetired": 0.07 < flags < 0.08,
            "IsSpamList": 0.08 < flags < 0.1,
            "IsMalware": 0.1 < flags < 0.11,
            "IsSubscriptionFree": 0.11 < flags < 0.12,
            "IsStealerLog": 0.12 < flags < 0.14,
        })
    return {"breaches": breaches}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the JSON file to write")
    parser.add_argument("--count", type=int, default=860, help="how many breaches (default 860)")
    parser.add_argument("--seed", type=int, default=32, help="the generator's seed (default 32)")
    args = parser.parse_args()
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(catalog(args.count, args.seed), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
