"""The grammar's word tables (data): ambiguous words, subjects, nouns with their measure words, drinks,
places, which nouns each verb takes, adjectives and colours, verbs with their forms and tenses, time
words, numbers, and the places, sports, instruments and shows the sentence rules pick from."""

from __future__ import annotations

from collections import defaultdict

from .phrases import ph

# Ambiguous English words: chinese sense -> short English gloss.
AMBIGUOUS_WORDS: dict[str, dict[str, str]] = {
    "saw": {"看见": "past tense of see", "锯子": "a tool for cutting wood"},
    "bank": {"银行": "a place for money", "河岸": "the side of a river"},
    "bat": {"蝙蝠": "a flying animal", "球拍": "a racket for hitting a ball"},
    "orange": {"橙子": "the fruit", "橙色": "the colour"},
    "light": {"灯": "a lamp", "轻": "not heavy"},
    "play": {"玩": "a game", "踢": "football", "打": "a ball game", "弹": "piano or guitar", "拉": "violin"},
    "watch": {"看": "look at (TV, a film)", "手表": "a clock on the wrist"},
    "fly": {"飞": "move through the air", "苍蝇": "an insect"},
}
# Every English form of the ambiguous words; a sentence with one of them records the sense it uses.
AMBIGUOUS_FORMS: dict[str, set[str]] = {
    "saw": {"saw", "saws"},
    "bank": {"bank"},
    "bat": {"bat", "bats"},
    "orange": {"orange", "oranges"},
    "light": {"light", "lights"},
    "play": {"play", "plays", "played", "playing"},
    "watch": {"watch", "watches", "watched", "watching"},
    "fly": {"fly", "flies", "flying", "flew"},
}

# Subjects: (english, chinese, agreement) — agreement "1s", "2", "3s" or "pl" picks am/are/is, do/does.
PRONOUNS = [
    ("i", "我", "1s"),
    ("you", "你", "2"),
    ("he", "他", "3s"),
    ("she", "她", "3s"),
    ("we", "我们", "pl"),
    ("they", "他们", "pl"),
]
OBJECT_PRONOUNS = [("me", "我"), ("you", "你"), ("him", "他"), ("her", "她"), ("us", "我们"), ("them", "他们")]
NAMES = [
    ("tom", "汤姆"),
    ("lily", "莉莉"),
    ("jack", "杰克"),
    ("lucy", "露西"),
    ("mary", "玛丽"),
    ("david", "大卫"),
    ("anna", "安娜"),
    ("peter", "彼得"),
]
# Family words take the possessor without 的 (我妈妈), as Chinese speakers say it.
KIN = [("mother", "妈妈"), ("father", "爸爸"), ("brother", "哥哥"), ("sister", "姐姐")]
POSSESSORS = [("my", "我"), ("your", "你"), ("his", "他"), ("her", "她")]

# Nouns: (english, plural, chinese, measure word, kind)
NOUNS = [
    # people
    ("student", "students", "学生", "个", "person"),
    ("teacher", "teachers", "老师", "名", "person"),
    ("doctor", "doctors", "医生", "名", "person"),
    ("nurse", "nurses", "护士", "名", "person"),
    ("driver", "drivers", "司机", "名", "person"),
    ("cook", "cooks", "厨师", "名", "person"),
    ("farmer", "farmers", "农民", "个", "person"),
    ("worker", "workers", "工人", "名", "person"),
    ("friend", "friends", "朋友", "个", "person"),
    ("child", "children", "孩子", "个", "person"),
    ("boy", "boys", "男孩", "个", "person"),
    ("girl", "girls", "女孩", "个", "person"),
    ("policeman", "policemen", "警察", "名", "person"),
    ("baby", "babies", "婴儿", "个", "person"),
    ("thief", "thieves", "小偷", "个", "criminal"),
    ("criminal", "criminals", "罪犯", "名", "criminal"),
    # animals
    ("cat", "cats", "猫", "只", "animal"),
    ("dog", "dogs", "狗", "只", "animal"),
    ("bird", "birds", "鸟", "只", "animal"),
    ("fish", "fish", "鱼", "条", "animal"),
    ("horse", "horses", "马", "匹", "animal"),
    ("cow", "cows", "牛", "头", "animal"),
    ("pig", "pigs", "猪", "头", "animal"),
    ("duck", "ducks", "鸭子", "只", "animal"),
    ("rabbit", "rabbits", "兔子", "只", "animal"),
    ("monkey", "monkeys", "猴子", "只", "animal"),
    ("tiger", "tigers", "老虎", "只", "animal"),
    ("panda", "pandas", "熊猫", "只", "animal"),
    ("elephant", "elephants", "大象", "头", "animal"),
    ("sheep", "sheep", "羊", "只", "animal"),
    ("mouse", "mice", "老鼠", "只", "animal"),
    ("fly", "flies", "苍蝇", "只", "animal"),
    # bats only appear in their own templates, where the context decides the sense
    ("bat", "bats", "蝙蝠", "只", "bat"),
    # food (countable)
    ("apple", "apples", "苹果", "个", "food"),
    ("orange", "oranges", "橙子", "个", "food"),
    ("banana", "bananas", "香蕉", "根", "food"),
    ("pear", "pears", "梨", "个", "food"),
    ("egg", "eggs", "鸡蛋", "个", "food"),
    ("cake", "cakes", "蛋糕", "块", "food"),
    ("sandwich", "sandwiches", "三明治", "个", "food"),
    ("watermelon", "watermelons", "西瓜", "个", "food"),
    ("cookie", "cookies", "饼干", "块", "food"),
    ("potato", "potatoes", "土豆", "个", "food"),
    ("tomato", "tomatoes", "西红柿", "个", "food"),
    ("peach", "peaches", "桃子", "个", "food"),
    ("lemon", "lemons", "柠檬", "个", "food"),
    ("mango", "mangoes", "芒果", "个", "food"),
    ("carrot", "carrots", "胡萝卜", "根", "food"),
    # things
    ("book", "books", "书", "本", "object"),
    ("pen", "pens", "笔", "支", "object"),
    ("phone", "phones", "手机", "部", "object"),
    ("computer", "computers", "电脑", "台", "object"),
    ("car", "cars", "车", "辆", "object"),
    ("bike", "bikes", "自行车", "辆", "object"),
    ("bus", "buses", "公共汽车", "辆", "object"),
    ("bag", "bags", "包", "个", "object"),
    ("box", "boxes", "盒子", "个", "object"),
    ("chair", "chairs", "椅子", "把", "object"),
    ("table", "tables", "桌子", "张", "object"),
    ("bed", "beds", "床", "张", "object"),
    ("key", "keys", "钥匙", "把", "object"),
    ("knife", "knives", "刀", "把", "object"),
    ("saw", "saws", "锯子", "把", "object"),
    ("umbrella", "umbrellas", "伞", "把", "object"),
    ("hat", "hats", "帽子", "顶", "object"),
    ("cup", "cups", "杯子", "个", "object"),
    ("watch", "watches", "手表", "块", "object"),
    ("ball", "balls", "球", "个", "object"),
    ("light", "lights", "灯", "盏", "object"),
    ("map", "maps", "地图", "张", "object"),
    ("letter", "letters", "信", "封", "object"),
    ("photo", "photos", "照片", "张", "object"),
    ("house", "houses", "房子", "座", "object"),
    ("tree", "trees", "树", "棵", "object"),
    ("flower", "flowers", "花", "朵", "object"),
    ("door", "doors", "门", "扇", "object"),
    ("window", "windows", "窗户", "扇", "object"),
    ("piano", "pianos", "钢琴", "架", "object"),
    ("guitar", "guitars", "吉他", "把", "object"),
    ("violin", "violins", "小提琴", "把", "object"),
    ("ticket", "tickets", "票", "张", "object"),
    ("newspaper", "newspapers", "报纸", "份", "object"),
    ("shirt", "shirts", "衬衫", "件", "object"),
    ("coat", "coats", "外套", "件", "object"),
    ("dress", "dresses", "裙子", "条", "object"),
    ("gift", "gifts", "礼物", "个", "object"),
    ("movie", "movies", "电影", "部", "object"),
    ("song", "songs", "歌", "首", "object"),
    ("machine", "machines", "机器", "台", "object"),
    ("robot", "robots", "机器人", "个", "object"),
    ("toy", "toys", "玩具", "个", "object"),
    ("camera", "cameras", "相机", "台", "object"),
    ("bottle", "bottles", "瓶子", "个", "object"),
    ("basket", "baskets", "篮子", "个", "object"),
    ("tv", "tvs", "电视", "台", "object"),
    ("picture", "pictures", "画", "幅", "object"),
    # "apple" as a brand is the same 苹果 in Chinese; the measure word follows the product.
    ("apple phone", "apple phones", "苹果 手机", "部", "brand"),
    ("apple computer", "apple computers", "苹果 电脑", "台", "brand"),
    ("apple watch", "apple watches", "苹果 手表", "块", "brand"),
]
NOUN = {n[0]: n for n in NOUNS}

# Mass nouns come in cups: "a cup of tea" ↔ 一杯茶, "the tea" ↔ 茶.
DRINKS = [("tea", "茶"), ("coffee", "咖啡"), ("milk", "牛奶"), ("water", "水"), ("juice", "果汁")]

# Places: (english, chinese, english preposition for "be at/in")
PLACES = [
    ("school", "学校", "at"),
    ("park", "公园", "in"),
    ("hospital", "医院", "at"),
    ("library", "图书馆", "in"),
    ("shop", "商店", "in"),
    ("bank", "银行", "at"),
    ("zoo", "动物园", "at"),
    ("station", "车站", "at"),
    ("restaurant", "饭馆", "in"),
    ("office", "办公室", "in"),
    ("supermarket", "超市", "in"),
    ("beach", "海滩", "on"),
    ("kitchen", "厨房", "in"),
    ("cinema", "电影院", "at"),
    ("classroom", "教室", "in"),
    ("garden", "花园", "in"),
    ("farm", "农场", "on"),
    ("market", "市场", "at"),
]

# Which nouns a verb accepts, by a name for the set.
_KIND = defaultdict(list)
for _n in NOUNS:
    _KIND[_n[4]].append(_n[0])
SETS = {
    "person": _KIND["person"],
    "criminal": _KIND["criminal"],
    "animal": [a for a in _KIND["animal"]],
    "food": _KIND["food"],
    "object": [o for o in _KIND["object"]],
    "readable": ["book", "newspaper", "letter", "map"],
    "writable": ["letter", "book", "song"],
    "drawable": [
        "cat",
        "dog",
        "bird",
        "horse",
        "house",
        "tree",
        "flower",
        "car",
        "apple",
        "orange",
        "map",
        "elephant",
        "panda",
        "picture",
    ],
    "washable": [
        "car",
        "bike",
        "cup",
        "shirt",
        "coat",
        "dress",
        "hat",
        "apple",
        "pear",
        "peach",
        "bottle",
        "potato",
        "carrot",
        "tomato",
        "bag",
        "window",
    ],
    "openable": ["door", "window", "box", "book", "bag", "umbrella", "bottle"],
    "closable": ["door", "window", "box", "book"],
    "portable": [
        "umbrella",
        "bag",
        "key",
        "phone",
        "book",
        "map",
        "camera",
        "hat",
        "watch",
        "pen",
        "ticket",
        "saw",
        "knife",
        "ball",
        "toy",
    ],
    "tool": ["knife", "saw", "pen", "computer", "phone", "key", "map", "camera"],
    "machine": [
        "car",
        "bike",
        "computer",
        "phone",
        "watch",
        "light",
        "tv",
        "chair",
        "table",
        "door",
        "window",
        "machine",
        "robot",
        "camera",
    ],
    "switchable": ["light", "tv", "computer"],
    "buyable": _KIND["food"]
    + [o for o in _KIND["object"] if o not in ("tree", "house", "door", "window")]
    + ["cat", "dog", "bird", "fish", "rabbit"],
    "sellable": _KIND["food"]
    + [
        "book",
        "car",
        "bike",
        "phone",
        "computer",
        "house",
        "bag",
        "hat",
        "watch",
        "ticket",
        "flower",
        "toy",
        "camera",
        "saw",
        "umbrella",
    ],
    "have": [
        "cat",
        "dog",
        "bird",
        "fish",
        "rabbit",
        "book",
        "pen",
        "phone",
        "computer",
        "car",
        "bike",
        "bag",
        "box",
        "key",
        "saw",
        "umbrella",
        "hat",
        "watch",
        "ball",
        "light",
        "ticket",
        "camera",
        "toy",
        "guitar",
        "piano",
        "violin",
        "friend",
        "apple",
        "orange",
        "cake",
    ],
}
for _set in ("buyable", "sellable", "have"):
    SETS[_set] += _KIND["brand"]
SETS["object"] += _KIND["brand"]
SETS["seeable"] = SETS["animal"] + SETS["object"] + SETS["food"] + SETS["person"] + SETS["criminal"]
SETS["likeable"] = [n for n in SETS["seeable"] if n not in ("light", "criminal", "thief")]

# Adjectives: (english, chinese, kinds of noun they describe, attach) — attach "direct" for one-syllable
# adjectives that Chinese puts straight before the noun (大猫, 新手机); the rest take 的 (可爱的猫).
ADJECTIVES = [
    ("big", "大", ["animal", "object", "food"], "direct"),
    ("small", "小", ["animal", "object", "food"], "direct"),
    ("new", "新", ["object"], "direct"),
    ("old", "旧", ["object"], "direct"),
    ("beautiful", "漂亮", ["object", "animal"], "de"),
    ("cute", "可爱", ["animal"], "de"),
    ("expensive", "贵", ["object", "food"], "de"),
    ("cheap", "便宜", ["object", "food"], "de"),
    ("clean", "干净", ["object"], "de"),
    ("dirty", "脏", ["object", "animal"], "de"),
    ("heavy", "重", ["object"], "de"),
    ("fast", "快", ["vehicle", "animal"], "de"),
    ("slow", "慢", ["vehicle", "animal"], "de"),
    ("delicious", "好吃", ["food"], "de"),
    ("sweet", "甜", ["food"], "de"),
    ("fresh", "新鲜", ["food"], "de"),
    ("interesting", "有趣", ["readable"], "de"),
    ("boring", "无聊", ["readable"], "de"),
]
# People-only adjectives, used as predicates ("she is happy" ↔ 她很高兴).
PERSON_ADJECTIVES = [
    ("happy", "高兴"),
    ("sad", "难过"),
    ("tired", "累"),
    ("hungry", "饿"),
    ("busy", "忙"),
    ("young", "年轻"),
    ("tall", "高"),
    ("strong", "强壮"),
    ("smart", "聪明"),
    ("friendly", "友好"),
    ("angry", "生气"),
    ("thirsty", "渴"),
]
# Colours: attributive 红色的, predicative 是红色的. "orange" is the ambiguous one.
COLOURS = [
    ("red", "红色"),
    ("blue", "蓝色"),
    ("green", "绿色"),
    ("yellow", "黄色"),
    ("black", "黑色"),
    ("white", "白色"),
    ("orange", "橙色"),
]
COLOURABLE = [
    "car",
    "bike",
    "bag",
    "box",
    "hat",
    "shirt",
    "coat",
    "dress",
    "umbrella",
    "cup",
    "flower",
    "ball",
    "pen",
    "phone",
    "chair",
    "door",
    "bottle",
    "toy",
    "bus",
    "house",
]
LIGHT_THINGS = [
    "bag",
    "box",
    "chair",
    "bike",
    "umbrella",
    "hat",
    "coat",
    "computer",
    "phone",
    "camera",
    "basket",
    "table",
    "guitar",
    "toy",
    "saw",
    "knife",
]
VEHICLES = ["car", "bike", "bus"]

# Transitive verbs: (base, 3sg, past, -ing, chinese, object set, tenses, subjects)
# tenses: "state" (simple present without a time word), "habit" (present with every day/often…),
# "past", "prog", "fut". subjects: "people" or "any" (animals too).
VERBS = [
    ("see", "sees", "saw", "seeing", "看见", "seeable", {"past", "fut"}, "any"),
    ("drink", "drinks", "drank", "drinking", "喝", "drink", {"habit", "past", "prog", "fut"}, "any"),
    ("eat", "eats", "ate", "eating", "吃", "food", {"habit", "past", "prog", "fut"}, "any"),
    ("buy", "buys", "bought", "buying", "买", "buyable", {"habit", "past", "fut"}, "people"),
    ("sell", "sells", "sold", "selling", "卖", "sellable", {"habit", "past", "prog", "fut"}, "people"),
    ("read", "reads", "read", "reading", "读", "readable", {"habit", "past", "prog", "fut"}, "people"),
    ("write", "writes", "wrote", "writing", "写", "writable", {"habit", "past", "prog", "fut"}, "people"),
    ("draw", "draws", "drew", "drawing", "画", "drawable", {"habit", "past", "prog", "fut"}, "people"),
    ("wash", "washes", "washed", "washing", "洗", "washable", {"habit", "past", "prog", "fut"}, "people"),
    ("open", "opens", "opened", "opening", "打开", "openable", {"past", "fut"}, "people"),
    ("close", "closes", "closed", "closing", "关上", "closable", {"past", "fut"}, "people"),
    ("find", "finds", "found", "finding", "找到", "seeable", {"past", "fut"}, "people"),
    ("lose", "loses", "lost", "losing", "丢", "portable", {"past"}, "people"),
    ("use", "uses", "used", "using", "用", "tool", {"habit", "past", "prog", "fut"}, "people"),
    ("fix", "fixes", "fixed", "fixing", "修理", "machine", {"habit", "past", "prog", "fut"}, "people"),
    ("take", "takes", "took", "taking", "带", "portable", {"habit", "past", "fut"}, "people"),
    ("feed", "feeds", "fed", "feeding", "喂", "animal", {"habit", "past", "prog", "fut"}, "people"),
    ("help", "helps", "helped", "helping", "帮助", "person", {"habit", "past", "prog", "fut"}, "people"),
    ("meet", "meets", "met", "meeting", "见到", "person", {"past", "fut"}, "people"),
    ("chase", "chases", "chased", "chasing", "追", "animal", {"habit", "past", "prog"}, "any"),
    ("catch", "catches", "caught", "catching", "抓住", "animal", {"past", "fut"}, "any"),
    ("like", "likes", "liked", "liking", "喜欢", "likeable", {"state"}, "people"),
    ("love", "loves", "loved", "loving", "爱", "person", {"state"}, "people"),
    ("want", "wants", "wanted", "wanting", "想要", "buyable", {"state"}, "people"),
    ("need", "needs", "needed", "needing", "需要", "tool", {"state"}, "people"),
    ("have", "has", "had", "having", "有", "have", {"state"}, "people"),
]
VERB = {v[0]: v for v in VERBS}
# Police work: "chase/catch a criminal" is 追捕/抓住, chasing an animal is plain 追.
CRIMINAL_VERBS = {"chase": "追捕", "catch": "抓住"}

# Intransitive verbs: (base, 3sg, past, -ing, chinese, subjects, tenses)
INTRANSITIVE = [
    ("sleep", "sleeps", "slept", "sleeping", "睡觉", "any", {"habit", "past", "prog", "fut"}),
    ("run", "runs", "ran", "running", "跑步", "people", {"habit", "past", "prog", "fut"}),
    ("swim", "swims", "swam", "swimming", "游泳", "people", {"habit", "past", "prog", "fut"}),
    ("sing", "sings", "sang", "singing", "唱歌", "people", {"habit", "past", "prog", "fut"}),
    ("dance", "dances", "danced", "dancing", "跳舞", "people", {"habit", "past", "prog", "fut"}),
    ("cry", "cries", "cried", "crying", "哭", "any", {"past", "prog"}),
    ("laugh", "laughs", "laughed", "laughing", "笑", "people", {"past", "prog"}),
    ("work", "works", "worked", "working", "工作", "people", {"habit", "past", "prog", "fut"}),
    ("study", "studies", "studied", "studying", "学习", "people", {"habit", "past", "prog", "fut"}),
    ("think", "thinks", "thought", "thinking", "思考", "people", {"prog"}),
    ("rest", "rests", "rested", "resting", "休息", "people", {"habit", "past", "prog", "fut"}),
    ("cook", "cooks", "cooked", "cooking", "做饭", "people", {"habit", "past", "prog", "fut"}),
    ("walk", "walks", "walked", "walking", "散步", "people", {"habit", "past", "prog", "fut"}),
    ("win", "wins", "won", "winning", "赢", "people", {"past", "fut"}),
]

# Time words by tense: (english, chinese). Habit adverbs go before the English verb; the others end it.
TIME = {
    "past": [
        ("yesterday", "昨天"),
        ("last night", "昨天 晚上"),
        ("this morning", "今天 早上"),
        ("last week", "上 个 星期"),
        ("on monday", "星期一"),
        ("on sunday", "星期天"),
        ("", ""),
    ],
    "fut": [
        ("tomorrow", "明天"),
        ("tonight", "今天 晚上"),
        ("next week", "下 个 星期"),
        ("on saturday", "星期六"),
        ("on friday", "星期五"),
        ("", ""),
    ],
    "habit": [
        ("every day", "每天"),
        ("every morning", "每天 早上"),
        ("every week", "每 个 星期"),
        ("every night", "每天 晚上"),
        ("at night", "晚上"),
        ("every tuesday", "每 个 星期二"),
        ("every wednesday", "每 个 星期三"),
        ("every thursday", "每 个 星期四"),
    ],
    "habit_adv": [("often", "经常"), ("always", "总是"), ("usually", "通常"), ("sometimes", "有时候")],
    "prog": [("now", "现在"), ("", "")],
    "state": [("", "")],
}

# Numbers. English number words are single tokens ("twenty-one"); each Chinese number is one token too.
EN_NUMBERS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
EN_NUMBERS += [
    f"{t}-{u}" if u else t
    for t in ("twenty", "thirty", "forty")
    for u in ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
][1:]
EN_NUMBERS = EN_NUMBERS[:21] + [w for w in EN_NUMBERS[21:]][:20]
_ZH_DIGITS = ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"]


def zh_number(n: int) -> str:
    """0–40 as one Chinese token: 十, 十一, 二十, 二十一 … 四十."""
    if n < 10:
        return _ZH_DIGITS[n]
    tens, units = divmod(n, 10)
    return ("" if tens == 1 else _ZH_DIGITS[tens]) + "十" + (_ZH_DIGITS[units] if units else "")


ZH_NUMBERS = [zh_number(n) for n in range(41)]
# Counting with a measure word uses 两 for two: 两只猫.
COUNT_ZH = {2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 9: "九", 10: "十"}


# Where an action happens: (english, chinese after 在). Some Chinese places need 里 (山洞里).
PLACE_ADVERBIALS = [
    ("in the park", "公园"),
    ("at school", "学校"),
    ("in the library", "图书馆"),
    ("in the kitchen", "厨房"),
    ("in the office", "办公室"),
    ("at the hospital", "医院"),
    ("in the garden", "花园"),
    ("in the classroom", "教室"),
    ("at the bank", "银行"),
    ("on the beach", "海滩 上"),
    ("in the cave", "山洞 里"),
    ("on the farm", "农场"),
]
# Where a thing is: (english, chinese) — "the cat is in the kitchen" ↔ 猫在厨房里,
# "there is a cat in the kitchen" ↔ 厨房里有一只猫.
LOCATIONS = [
    ("in the kitchen", "厨房 里"),
    ("in the box", "盒子 里"),
    ("in the bag", "包 里"),
    ("in the park", "公园 里"),
    ("in the garden", "花园 里"),
    ("in the classroom", "教室 里"),
    ("on the table", "桌子 上"),
    ("on the bed", "床 上"),
    ("on the ground", "地上"),
    ("under the bed", "床 下面"),
    ("under the table", "桌子 下面"),
    ("in the tree", "树 上"),
    ("in the middle of the park", "公园 中间"),
    ("in the middle of the room", "房间 中间"),
    ("in the room", "房间 里"),
    ("in the cave", "山洞 里"),
    ("in the river", "河 里"),
    ("in the bank", "银行 里"),
    ("on the bank", "河岸 上"),
]
ANIMAL_ONLY_LOCATIONS = {"in the tree", "in the cave", "in the river"}


MONEY = ph("money", "钱")
SPORTS = [
    ("football", "踢", "足球"),
    ("basketball", "打", "篮球"),
    ("table tennis", "打", "乒乓球"),
    ("tennis", "打", "网球"),
]
INSTRUMENTS = [("the piano", "弹", "钢琴"), ("the guitar", "弹", "吉他"), ("the violin", "拉", "小提琴")]
WATCHABLE = [
    ("tv", "电视"),
    ("a movie", "一 部 电影"),
    ("the movie", "电影"),
    ("this movie", "这 部 电影"),
    ("a football match", "一 场 足球 比赛"),
    ("the football match", "足球 比赛"),
    ("the game of thrones", "权力的游戏"),
]


# Sensible places for people doing things (no swimming at the bank).
INTRANSITIVE_PLACES = {
    "work": ["in the office", "at the bank", "at the hospital", "at school", "in the library", "on the farm"],
    "study": ["at school", "in the library", "in the classroom"],
    "rest": ["in the park", "in the garden", "on the beach"],
    "walk": ["in the park", "in the garden"],
    "run": ["in the park", "on the beach"],
    "cook": ["in the kitchen"],
    "sing": ["in the park", "in the classroom", "on the beach"],
    "dance": ["in the park", "in the classroom"],
}
