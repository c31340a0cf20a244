// DataTrove's integrated URLFilter word lists (src/datatrove/assets/*.txt), raw lines; `#` lines are disabled entries.

/** assets/banned_words.txt: a URL word (split on non-alphanumerics) equal to one of these → `hard_blacklisted`. */
export const BANNED_WORDS: readonly string[] = [
  "#mong", "#poof", "#xx", "18abused", "2g1c", "acrotomophilia", "anilingus", "arsehole", "#ass", "assmunch",
  "autoerotic", "babeland", "bangbros", "bangbus", "bareback", "barenaked", "bastinado", "bbw", "bdsm", "beaner",
  "beaners", "beastiality", "bigcock", "bimbos", "birdlock", "bitches", "blowjob", "blumpkin", "bollocks", "bondage",
  "boner", "bukkake", "bulldyke", "bunghole", "busty", "camgirl", "camslut", "camwhore", "carpetmuncher", "cialis",
  "#circlejerk", "clit", "cock", "cocks", "#coon", "#coons", "coprolagnia", "coprophilia", "cornhole", "creampie",
  "#cum", "cumming", "cumshot", "cumshots", "cunnilingus", "darkie", "daterape", "deepthroat", "dendrophilia",
  "dildo", "dingleberries", "dingleberry", "doggiestyle", "doggystyle", "dolcett", "dominatrix", "dommes", "dvda",
  "ecchi", "eunuch", "faggot", "felch", "feltch", "femdom", "figging", "fingerbang", "fingering", "fisting",
  "footjob", "frotting", "fuckin", "fucking", "fucktards", "fudgepacker", "futanari", "gangbang", "goatcx", "goatse",
  "gokkun", "goodpoop", "goregasm", "grope", "gspot", "guro", "handjob", "hentai", "#homoerotic", "honkey", "hooker",
  "horny", "humping", "#incest", "#interracial", "jailbait", "japaneseadult", "jigaboo", "jiggaboo", "jiggerboo",
  "jizz", "juggs", "kike", "kinbaku", "kinkster", "kinky", "knobbing", "livesex", "lovemaking", "masturbating",
  "milf", "motherfucker", "muffdiving", "nambla", "nawashi", "nigga", "nigger", "nimphomania", "nsfw", "nutten",
  "nympho", "nymphomania", "omorashi", "orgy", "paki", "pedobear", "pegging", "pikey", "pissing", "pisspig",
  "ponyplay", "poon", "poontang", "poopchute", "porn", "porno", "pthc", "pubes", "punany", "pussy", "queaf", "queef",
  "quim", "raep", "raghead", "rimjob", "rimming", "salope", "santorum", "scat", "schlong", "scissoring", "sexcam",
  "sexo", "shemale", "shibari", "shitblimp", "shota", "shrimping", "skeet", "slanteye", "slut", "smut", "sodomize",
  "#spastic", "spic", "splooge", "spooge", "spunk", "strapon", "strappado", "stroking", "#suck", "sucking",
  "swinger", "throating", "fuckedvideo", "thumbzilla", "tit", "tits", "titties", "titty", "tosser", "towelhead",
  "tranny", "tribadism", "tubgirl", "tushy", "twat", "twink", "twinkie", "undressing", "upskirt", "urophilia",
  "viagra", "vibrator", "vorarephilia", "voyeur", "voyeurweb", "voyuer", "wank", "wetback", "whore", "worldsex",
  "xxx", "yaoi", "yiffy", "zoophilia",
];

/** assets/banned_subwords.txt: normalized (alphanumerics only, lowercased) substrings → `blacklisted_subword`. */
export const BANNED_SUBWORDS: readonly string[] = [
  "2 girls 1 cup", "alabama hot pocket", "alaskan pipeline", "auto erotic", "baby batter", "baby juice", "ball gag",
  "ball gravy", "ball kicking", "ball licking", "ball sack", "ball sucking", "barely legal", "beaver cleaver",
  "beaver lips", "big black", "big breasts", "big knockers", "big tits", "black cock", "blonde action",
  "blonde on blonde", "blow job", "blow your load", "blue waffle", "booty call", "brown showers", "brunette action",
  "bukkake", "bullet vibe", "bung hole", "butt cheeks", "butt hole", "call girl", "camel toe", "carpet muncher",
  "chat online with girls", "chaturbate", "chocolate rosebuds", "cleveland steamer", "clover clamps", "date rape",
  "deep throat", "dirty pillows", "dirty sanchez", "dog style", "doggie style", "doggy style", "donkey punch",
  "double dong", "double penetration", "dp action", "dry hump", "eat my ass", "escort service", "face sitting",
  "female squirting", "free sex", "fuck buttons", "fudge packer", "gang bang", "gay sex", "get laid", "giant cock",
  "girl on top", "girls gone wild", "golden shower", "goo girl", "group sex", "guys sex", "hand job", "#hot carl",
  "hot chat", "hot chick", "hot nude", "huge fat", "jack off", "jail bait", "jelly donut", "jerk off",
  "leather restraint", "leather straight jacket", "lemon party", "make me come", "male squirting", "massage girl",
  "menage a trois", "missionary position", "muff diver", "nig nog", "one cup two girls", "one guy one jar",
  "penis pump", "perfect slave", "phone sex", "piss pig", "pleasure chest", "pole smoker", "poop chute", "pornhub",
  "brazzers", "threesome", "prince albert piercing", "raging boner", "reverse cowgirl", "rosy palm",
  "rusty trombone", "sex doll", "sex free", "sex video", "sex videos", "sexy af", "shaved beaver", "shaved pussy",
  "splooge moose", "spread legs", "strap on", "style doggy", "suicide girls", "sultry women", "tainted love",
  "tea bagging", "tight white", "tongue in a", "tub girl", "two girls one cup", "urethra play", "violet wand",
  "webcam with", "wet dream", "wrapping men", "wrinkled starfish", "xvideos", "yellow showers", "youjizz",
];

/** assets/soft_banned_words.txt: soft_word_threshold of these among the URL words → `soft_blacklisted`. */
export const SOFT_BANNED_WORDS: readonly string[] = [
  "anus", "apeshit", "asshole", "ass", "babes", "baise", "bastard", "bastardo", "bitch", "circlejerk", "#horny",
  "boob", "cum", "coon", "coons", "boobs", "suck", "brunette", "bullshit", "butt", "clitoris", "clusterfuck",
  "interracial", "spastic", "cunt", "dick", "domination", "ejaculate", "ejaculation", "erotic", "erotism", "escort",
  "fag", "fecal", "fellatio", "footfetish", "fuck", "genitals", "hardcore", "intercourse", "latina", "latino",
  "lesbian", "lingerie", "lolita", "masturbate", "masturbation", "naked", "negro", "negro", "neonazi", "nipple",
  "nipples", "nude", "nudity", "octopussy", "orgasm", "paedophile", "panties", "panty", "pedophile", "penis",
  "playboy", "pornography", "rape", "raping", "incest", "rapist", "rectum", "sadism", "homoerotic", "semen", "sex",
  "sexual", "sexuality", "sexually", "sexy", "shit", "shitty", "snatch", "snowballing", "sodomy", "spank", "sucks",
  "swastika", "topless", "vagina", "vulva", "webcam",
];
