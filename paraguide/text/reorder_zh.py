"""The Chinese rules of :mod:`paraguide.text.reorder` (jieba's words and tags), in the order they run
(``RULES``). Each was read blind on questions it had not seen before it was kept (docs/build.md).

- ``copula_swap``: 什么是X -> X是什么 and back, 谁是X -> X是谁 and back.
- ``which_good``: X哪家好 -> 哪家X好, X什么牌子好 -> 什么牌子的X好.
- ``ask``: a search query asked as a question: 高中老师工资 -> 高中老师工资是多少.
- ``why_reason``: 为什么X -> X是什么原因.
- ``how_method``: 电脑怎么连接打印机 -> 电脑连接打印机的方法是什么, 燕麦怎么吃 -> 燕麦的吃法是什么 (a topic before 怎么).
- ``meaning``: X是什么意思 -> X的含义是什么, and back: 逼近的意思是什么 -> 逼近是什么意思.
- ``name``: X叫什么名字 -> X的名字是什么.
- ``when_time``: X什么时候上映 -> X上映的时间是什么时候.
- ``use``: X有什么用 -> X的用途是什么.
- ``how_front``: 领带怎么系 -> 怎么系领带 (the fronted topic after its verb); ``how_topic`` the other way:
  怎么做蛋糕 -> 蛋糕怎么做.
- ``attribute``: X有什么好处 -> X的好处是什么, and back.
- ``cause``: X是什么原因 -> 为什么X.
- ``where_front``: X在哪里下载 -> 在哪里可以下载X.
- ``best``: 什么植物最耐寒 -> 最耐寒的植物是什么.
- ``property``: 这鞋子是什么牌子 -> 这鞋子的牌子是什么.
- ``suits``: 红米刷什么系统好 -> 红米适合刷什么系统; ``suit_swap``: 圆脸适合什么发型 -> 什么发型适合圆脸.
- ``how_long``: 水痘多久能好 -> 水痘要多久才能好.
- ``how_want``: 怎样申请小米帐号 -> 想申请小米帐号，该怎样做？
- ``exist``: 有什么好看的小说 -> 好看的小说有哪些.
- ``brand_last``: 什么牌子的醋最好吃 -> 醋什么牌子最好吃 (``which_good`` the other way).
- ``riddle``: 世事难料是什么生肖 -> 世事难料打一生肖.
- ``in_language``: 我爱你韩语怎么写 -> 我爱你用韩语怎么写.
- ``indirect``: 这是什么意思 -> 你知道这是什么意思吗, 电脑怎么连接打印机 -> 有谁知道电脑怎么连接打印机吗: the question
  asked as an indirect one, a fallback the generator takes only where nothing else passes but a question-word
  swap (``pipeline.generate.FALLBACK_ORIGINS``).

Not kept: 如何 / 怎样 X -> X的方法是什么 (formal questions read stilted so, reading 2026-11-27n: 70 %), nor a
question that opens with 怎么 (readings 2026-11-27p-u); X多少钱 -> X的价格是多少 / X的费用是多少 (which of the
two a thing takes -- 加盟, 雅思, 考驾照 -- no tag tells, reading 2026-11-27e: 77 %).
"""

from __future__ import annotations

import re
import zlib

from paraguide.text.pos import TaggedToken, pos_tag

_ZH_END = ("？", "?", "呢", "啊", "呀")


def _zh_words_and_end(toks: list[TaggedToken]) -> tuple[list[str], str]:
    """The question's words and its closing marks and particles (？, 呢, 啊), which a reordering keeps at the
    end as they are."""
    words = [t.text for t in toks]
    mark = ""
    while words and words[-1] in _ZH_END:
        mark = words.pop() + mark
    return words, mark


def _copula_swap(q: str, toks: list[TaggedToken]) -> str | None:
    """什么是X -> X是什么, X是什么 -> 什么是X (and 谁): the same question in the other order. X must be a
    word or a noun phrase (no verb of its own, no second 是), the question nothing else."""
    words, mark = _zh_words_and_end(toks)
    if len(words) < 3 or words.count("是") != 1:
        return None
    wh = {"什么", "谁"}
    if words[0] in wh and words[1] == "是":
        order = "front"
    elif words[-1] in wh and words[-2] == "是":
        order = "end"
    else:
        return None
    x_toks = toks[2 : len(words)] if order == "front" else toks[: len(words) - 2]
    if not x_toks or any(t.tag.startswith(("v", "r", "d", "c", "p", "u", "f", "m", "t")) for t in x_toks):
        return None  # 什么是我该做的 / 他是谁的 / 青铜门后面是什么: no plain noun phrase
    # X是什么 -> 什么是X only where X是什么 asks what X is (口蹄疫是什么), not which one (邮箱后缀是什么), not for the
    # word (反义词是什么, reading 2026-11-27za), the name or the address (学名是什么, 网址是什么, reading zn)
    if order == "end" and words[-1] == "什么":
        head = x_toks[-1].text
        if (
            len(x_toks) > 1
            or head in _ATTRIBUTES | {"意思", "答案", "含义", "原因"}
            or head.endswith(("名", "址", "号", "码", "称"))
        ):
            return None
    x_text = q[x_toks[0].start : x_toks[-1].end]
    if any(ch.isspace() for ch in x_text):
        return None
    if order == "front":
        return f"{x_text}是{words[0]}{mark}"
    return f"{words[-1]}是{x_text}{mark}"


_WHICH = {"哪个", "哪家", "哪款", "哪种", "哪一个", "哪一家", "哪一款", "哪一种"}
_GOOD = {"好", "好用", "好看", "划算", "便宜", "好吃", "靠谱", "专业", "正规", "实惠"}


def _zh_which_good(q: str, toks: list[TaggedToken]) -> str | None:
    """X哪家好 -> 哪家X好 (阜阳人流医院哪家好 -> 阜阳哪家人流医院好: a place first stays first), X什么牌子好 ->
    什么牌子的X好: the question word before the noun it asks about. X nouns only (not 深圳学习成人口语, whose
    noun is not what is chosen; not "32位和64位", a choice between two)."""
    words, mark = _zh_words_and_end(toks)
    if len(words) < 3 or words[-1] not in _GOOD:
        return None
    if words[-2] in _WHICH:
        wh, x = words[-2], toks[: len(words) - 2]
    elif words[-3:-1] == ["什么", "牌子"] or words[-4:-1] == ["什么", "牌子", "的"]:
        wh, x = "什么牌子的", toks[: len(words) - (3 if words[-2] == "牌子" else 4)]
    else:
        return None
    if not x or any(
        not t.tag.startswith(("n", "eng", "j", "b")) and t.text != "的" or t.tag == "nr" for t in x
    ):
        return None  # a verb in X, or a name (周公山温泉酒店: one place, no choice of it)
    place = ""
    if len(x) > 1 and x[0].tag == "ns" and wh in _WHICH:
        place, x = x[0].text, x[1:]
        if x and x[0].text == "的":
            x = x[1:]  # 成都的人流医院哪家好 -> 成都哪家人流医院好
    if not x or any(t.text == "的" for t in x) or not x[-1].tag.startswith(("n", "eng")):
        return None  # 空调移机 (a service: 哪家的空调移机)
    x_text = q[x[0].start : x[-1].end]
    return f"{place}{wh}{x_text}{words[-1]}{mark}"


# A search query that names what it wants ("高中老师工资", "国产航母下水时间") asked as a question: the
# question each kind of noun asks (its last characters, so that 平均工资 and 门票价格 count).
_ASKS = {
    "是多少": (
        "电话", "价格", "尺寸", "身高", "比例", "年龄", "税率", "费用", "票房", "人数", "销量", "正常值", "排名",
        "面积", "限额", "手续费", "收视率", "汇率", "利率", "额度", "速度", "人口", "体重", "工资", "房价",
        "市值", "总资产", "长度", "总分", "利润", "厚度", "倍数", "过路费", "数量", "奖金", "收入", "分数线",
        "海拔", "温度", "距离", "重量", "高度", "学费", "票价", "密码", "邮编", "区号", "号码", "功率",
        "容量", "排量", "油耗", "价钱", "成本", "年薪", "月薪", "薪资", "薪水", "鞋码",
    ),
    "是什么时候": ("时间", "日期", "生日"),
    "是多久": ("有效期", "年限", "寿命", "期限", "保质期", "周期"),
    "是什么": ("缩写", "等级", "级别", "意思", "含义", "全称", "简称", "定义"),
}  # fmt: skip
# Before 时间 these make it a duration (存活时间: how long it survives), not a point in time.
_DURATION_VERBS = (
    "存活", "持续", "保存", "恢复", "潜伏", "保质", "有效", "使用", "工作", "运行", "充电", "治疗", "等待",
    "生长", "冷却", "维持", "反应", "睡眠", "飞行", "学习", "训练", "煮", "蒸", "烤", "炖", "泡", "孵化",
)  # fmt: skip
_COOKING_VERBS = (
    "煮",
    "蒸",
    "烤",
    "炖",
    "炒",
    "焖",
    "煲",
    "卤",
    "腌",
    "泡",
)  # 高压锅炖排骨时间: how long (reading u)
# A query that holds one of these asks its own question already.
_NOT_QUERY = (
    "吗", "呢", "?", "？", "是否", "能否", "哪", "几", "谁", "什么", "啥", "多少", "怎", "如何", "为何", "为啥",
    "多久", "多长",
)  # fmt: skip


def _zh_ask(q: str, toks: list[TaggedToken]) -> str | None:
    """高中老师工资 -> 高中老师工资是多少, 国产航母下水时间 -> 国产航母下水时间是什么时候: a search query that
    names a quantity, a time or a term, asked as the question it stands for. Not a query with a question
    word of its own, a space (北京暂住证 有效期) or one word alone."""
    if len(toks) < 2 or any(w in q for w in _NOT_QUERY) or any(ch.isspace() for ch in q.strip()):
        return None
    last = toks[-1].text
    if last.endswith("时间") and (
        q.strip()[: -len("时间")].endswith(_DURATION_VERBS) or any(v in q for v in _COOKING_VERBS)
    ):
        return None  # 精子在体内存活时间 asks how long, not when (reading 2026-11-27e)
    for ask, nouns in _ASKS.items():
        if any(last.endswith(n) for n in nouns):
            return q.strip() + ask
    return None


_ZH_TAIL = _ZH_END + ("！", "!", "吧", "。", ".")
_ZH_QUESTION = {"什么", "怎么", "怎样", "如何", "为什么", "为啥", "为何", "吗", "谁", "哪", "哪里", "哪个", "多少", "几",
                "啥"}  # fmt: skip
_ZH_CLAUSE = {"但", "但是", "而", "而且", "还是", "或者", "或", "，", ",", "；", ";", "、", "如果", "因为", "所以"}  # fmt: skip


def _zh_bare(toks: list[TaggedToken], predicate) -> bool:
    """Is there a token ``predicate`` picks (a verb, an adjective ...) that no 的 follows? Followed by 的 it
    only modifies the noun after it (好看的小说, 额头小的女生); bare, it makes X a clause."""
    following = [t.text for t in toks[1:]] + [""]
    return any(predicate(t) and u != "的" for t, u in zip(toks, following, strict=True))


def _zh_asks_more(toks: list[TaggedToken], also=frozenset()) -> bool:
    """Does any of ``toks`` ask something else (a question word), open a second clause, close a sentence or
    belong to ``also``? A rule's X must not: it would move a second question along with the first."""
    other = _ZH_QUESTION | _ZH_CLAUSE | set(_ZH_TAIL) | set(also)
    return any(t.text in other for t in toks)


def _zh_split_tail(q: str, toks: list[TaggedToken]) -> tuple[list[TaggedToken], str]:
    """The question's words without its closing particles and marks, and the question mark to end it with
    (a particle 啊 / 呢 goes: "X的原因是什么啊" reads worse than without it)."""
    body = list(toks)
    mark = ""
    while body and body[-1].text in _ZH_TAIL:
        if body[-1].text in ("？", "?"):
            mark = body[-1].text
        body.pop()
    return body, mark


def _zh_why_reason(q: str, toks: list[TaggedToken]) -> str | None:
    """为什么头发掉得很厉害 -> 头发掉得很厉害是什么原因, 大象的鼻子为什么很长 -> 大象的鼻子很长是什么原因: "why"
    asked as "what is the reason", the way such questions are typed (X的原因是什么 read stilted: readings
    2026-11-27v/x). Not 为什么 at the end, nor with a second clause (但, 还是, a comma), a 的 just before, or a
    modal or 是 first (会地震是什么原因)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if words.count("为什么") != 1 or words[-1] == "为什么":
        return None
    k = words.index("为什么")
    rest = body[:k] + body[k + 1 :]
    if len(rest) < 2 or any(t.text in _ZH_QUESTION | _ZH_CLAUSE for t in rest):
        return None
    if not any(t.tag.startswith(("v", "a")) for t in body[k + 1 :]) or "的" in words[-2:]:
        return None  # no predicate after it, or "...她的下面"
    if body[k + 1].text in ("会", "有", "要", "能", "是", "说") or rest[0].text in (
        "会",
        "有",
        "要",
        "能",
        "是",
        "说",
    ):
        return None  # "会地震是什么原因", 人为什么会来到这个世界上, 为什么说X: clumsy (readings 2026-11-27f/z/za)
    if words[-1] == "是" or body[-1].tag.startswith("f") or words[-1].endswith(("后", "前", "时")):
        return (
            None  # "会地震是什么原因", 为什么说X (where a saying comes from): clumsy (readings 2026-11-27f/z)
        )
    if any(ch in q for ch in "：:") or ("会" in "".join(words) and words[-1].endswith("了")):
        return None  # a title before a colon; 我会被...开除了是什么原因 (reading 2026-11-27z)
    head = q[body[0].start : body[k].start] if k else ""
    tail = q[body[k + 1].start : body[-1].end]
    return f"{head}{tail}是什么原因{mark}"


# After 怎么 these make it "why" (怎么不 / 怎么会 / 怎么这么) or another question (怎么样, 怎么办, 怎么回事).
_HOW_WHY = {"样", "么", "办", "回事", "这么", "那么", "会", "不", "没", "没有", "无法", "不能", "还", "又", "都",
            "就", "老是", "总是", "一直", "突然", "也", "样才能", "说"}  # fmt: skip
_HOW_ABLE = ("才能", "才可以", "可以", "能", "才")
# Nouns of manner Chinese makes from a verb (吃法, 写法); not 看法 (an opinion), 说法, 想法, 搞法, 查法
# (reading 2026-11-27g).
_MANNER_NOUNS = {"吃法", "做法", "用法", "玩法", "打法", "读法", "画法", "叠法", "折法", "穿法", "煮法", "炒法",
                 "养法", "种法", "织法", "写法", "念法", "拼法", "唱法"}  # fmt: skip
# Verbs after which "the method of" reads wrong: a state (知道), a placeholder verb (搞, 弄, 整), 把 ... (the
# object before the verb: 把手机的业务取消的方法).
_HOW_NOT_ACT = {"知道", "搞", "弄", "整", "算", "看", "把"}


_ZH_HOW = ("怎么", "如何", "怎样")


def _zh_how_at(body: list[TaggedToken]) -> int | None:
    """Where the one "how" (怎么, 如何, 怎样) of a question is; None for none, two, or one at the end."""
    found = [k for k, t in enumerate(body) if t.text in _ZH_HOW]
    if len(found) != 1 or found[0] == len(body) - 1:
        return None
    return found[0]


def _zh_how_to(q: str, toks: list[TaggedToken]):
    """The parts of a "how to" question that asks for a way to do something: (before, the how word, the verb
    phrase after it, the closing mark), or None. A verb (or 用 ...) right after the how word, not 怎么不 /
    怎么会 / 怎么这么 (why), 怎么样, 怎么办, a result (怎么做才好吃, 怎么写好看) or 怎么 ... 了; what comes before
    it is a noun phrase or nothing."""
    body, mark = _zh_split_tail(q, toks)
    k = _zh_how_at(body)
    if k is None:
        return None
    before, after = body[:k], body[k + 1 :]
    if after and after[0].text in _HOW_ABLE:
        after = after[1:]  # 怎么才能瘦脸 -> 瘦脸的方法
    if not after or body[k + 1].text in _HOW_WHY or not after[0].tag.startswith(("v", "p")):
        return None
    if after[0].text in _HOW_NOT_ACT or any(ch in q for ch in "…=") or after[-1].text in ("的", "了"):
        return None  # 知道 / 搞 / 把 ...; 怎么飞了 (how it came to)
    if any(not t.tag.startswith(("n", "r", "j", "eng")) and t.text != "的" for t in before):
        return None  # 我想知道怎么..., 坐车怎么...: not a plain subject
    if any(t.text in ("该", "应该", "要") for t in before) or any(t.text in _ZH_TAIL for t in body):
        return None  # 该怎么 (reading 2026-11-27h); two sentences (怎么跟他聊天？他是...)
    if any(t.text in _ZH_QUESTION | _ZH_CLAUSE | {"才", "才会", "(", "（"} for t in before + after):
        return None  # 黄豆芽怎么做才好吃: the way to a result, not to an act
    if any(t.text in ("不", "不能", "没", "没有", "无法", "不了") for t in after):
        return None  # 怎么在百度回答不能提交: why, not how; 爱不爱: a yes-no question inside
    if any(
        t.tag.startswith("a") or t.text in ("出来", "起来", "下去", "最") or t.text.startswith("好")
        for t in after
    ):
        return None  # 怎么写好看, 怎么做最舒服, 怎么测出来, 怎么做酸菜好吃: a result or a degree, not a way
    if after[-1].text in ("图片", "图", "视频", "教程", "图解"):
        return None  # 怎么折玫瑰花图片: a search for pictures of the way (reading 2026-11-27s)
    return before, body[k].text, after, mark


def _zh_how_method(q: str, toks: list[TaggedToken]) -> str | None:
    """电脑怎么连接打印机 -> 电脑连接打印机的方法是什么, 燕麦怎么吃 -> 燕麦的吃法是什么: "how to" asked as "what is the
    method", where a topic comes before 怎么. Not 如何 / 怎样 (如何理解 ..., 怎样去除 ...的异味 read stilted as
    的方法, reading 2026-11-27n: 70 %), nor a question that opens with 怎么: 去除这污渍的方法, 骂河南人的方法 read
    stilted too (readings 2026-11-27p-u: 13 of 22), and ``how_want`` asks those."""
    found = _zh_how_to(q, toks)
    if found is None or found[1] != "怎么" or not found[0]:
        return None
    before, _, after, mark = found
    if any(t.text == "的" for t in after) or after[0].text in ("来", "去"):
        return None  # 求这个圆的周长的方法 (two 的), 来女人缘的方法 (reading 2026-11-27r)
    head = q[before[0].start : before[-1].end] if before else ""
    verb = q[after[0].start : after[-1].end]
    if before and after[-1].tag in ("v", "p"):
        # With no object after the verb the thing named first is its object: a verb of one character makes
        # its own noun of manner (燕麦怎么吃 -> 燕麦的吃法; not 马的甲骨文的写法, two 的); a longer one would
        # have to go before it, which readers found garbled half the time (读芮广州话, 玩生存手机版我的世界)
        if (
            len(after) == 1
            and verb + "法" in _MANNER_NOUNS
            and not head.endswith(("笔顺", "英语", "英文"))
            and "的" not in head
        ):
            return f"{head}的{verb}法是什么{mark}"
        return None
    return f"{head}{verb}的方法是什么{mark}"


# Verbs whose "how" asks for an opinion, a form or a manner of a thing one has, not a way to get something
# done: "想吃大闸蟹，该怎么做" would ask how to get one.
_HOW_WANT_NOT = {"看待", "理解", "评价", "认识", "形容", "描述", "解释", "回答", "写", "读", "说", "念", "拼", "做",
                 "吃", "喝", "穿", "戴", "用", "使用", "称呼", "表达", "翻译", "画", "唱", "过", "看", "玩", "算",
                 "计算", "区分", "分辨", "判断", "选择", "选"}  # fmt: skip


def _zh_how_want(q: str, toks: list[TaggedToken]) -> str | None:
    """怎样注册新账号 -> 想注册新账号，该怎样做？, 如何去掉图片水印 -> 想去掉图片水印，该如何做？: "how to do X" asked
    as "I want to do X: what should I do?" -- the question opening with its how word, the rest a verb phrase."""
    found = _zh_how_to(q, toks)
    if found is None or found[0]:
        return None
    _, how, after, mark = found
    if after[0].text in ("用", "在", "从", "对", "给", "跟", "和", "让", "使", "把"):
        return None  # 怎么用手机..., 怎么让...: a means or a cause, not the act wanted
    if after[0].text in _HOW_WANT_NOT or after[0].text in ("去", "来") and len(after) > 1:
        return None  # 如何看待 (an opinion), 怎么写陈述句 (a form), 怎么吃大闸蟹 (wanting to eat is not how); 想去买到
    if any(t.text in ("用", "在") for t in after[1:]):
        return None  # 怎么制作这种图片用手机 (reading 2026-11-27s)
    return f"想{q[after[0].start : after[-1].end]}，该{how}做{mark or '？'}"


def _zh_frame(
    q: str, toks: list[TaggedToken], ending: tuple[str, ...]
) -> tuple[list[TaggedToken], str] | None:
    """X of a question X + ``ending`` (是什么意思, 有什么用 ...), its closing marks aside, and the question mark;
    None where X is empty or asks something else too (a question word, a second clause)."""
    body, mark = _zh_split_tail(q, toks)
    n = len(ending)
    if len(body) <= n or tuple(t.text for t in body[-n:]) != ending:
        return None
    x = body[:-n]
    if any(t.text in _ZH_QUESTION | _ZH_CLAUSE for t in x):
        return None
    return x, mark


def _zh_meaning(q: str, toks: list[TaggedToken]) -> str | None:
    """举案齐眉是什么意思 -> 举案齐眉的含义是什么, and 逼近的意思是什么 -> 逼近是什么意思."""
    found = _zh_frame(q, toks, ("是", "什么", "意思"))
    back = _zh_frame(q, toks, ("的", "意思", "是", "什么")) or _zh_frame(
        q, toks, ("的", "含义", "是", "什么")
    )
    if back and not found:
        x, mark = back
        if any(t.text == "的" for t in x) or x[-1].tag.startswith(("r", "m", "q", "p", "u")):
            return None
        return f"{q[x[0].start : x[-1].end]}是什么意思{mark}"
    if not found:
        return None
    x, mark = found
    if (
        x[-1].text == "的"
        or any(t.text in ("请", "翻译", "说", "对", "问") for t in x)
        or x[-1].tag.startswith(("r", "m", "q"))
    ):
        return None  # 这的含义, 说的一个的含义, 请给我翻译一下 (reading 2026-11-27g)
    return f"{q[x[0].start : x[-1].end]}的含义是什么{mark}"


def _zh_noun_phrase(x: list[TaggedToken]) -> bool:
    """A plain noun phrase: nouns, pronouns, 的 between them (这个美女, 神兵小将的主题曲), ending in a noun."""
    return (
        bool(x)
        and x[-1].tag.startswith(("n", "eng", "j"))
        and all(
            t.tag.startswith(("n", "r", "m", "q", "a", "b", "j", "eng", "t")) or t.text == "的" for t in x
        )
    )


# Kinship terms: "X的Y叫什么" made of these asks for the term of address (妈妈的奶奶 -> 太姥姥), not a name.
_KIN = {"爸爸", "妈妈", "父亲", "母亲", "爷爷", "奶奶", "外公", "外婆", "姥姥", "姥爷", "哥哥", "姐姐", "弟弟", "妹妹",
        "叔叔", "阿姨", "舅舅", "姑姑", "伯伯", "老公", "老婆", "儿子", "女儿", "孙子", "孙女", "表哥", "表姐", "堂哥",
        "老婆婆", "丈夫", "妻子", "岳父", "岳母", "公公", "婆婆"}  # fmt: skip


def _zh_name(q: str, toks: list[TaggedToken]) -> str | None:
    """这个美女叫什么名字 -> 这个美女的名字是什么, 大头儿子的爸爸叫什么 -> 大头儿子的爸爸的名字是什么."""
    found = _zh_frame(q, toks, ("叫", "什么", "名字")) or _zh_frame(q, toks, ("叫", "什么"))
    if not found:
        return None
    x, mark = found
    if x[-1].text in ("又", "还", "也", "还可以", "又名", "一般", "都"):
        return None  # 牵牛花又叫什么 asks for its other names
    if x[-1].text == "是":
        x = x[:-1]  # 这韩剧是叫什么 -> 这韩剧的名字
    if x and all(t.text in _KIN or t.text in ("的", "我", "我的") for t in x):
        return None  # 妈妈的奶奶叫什么 asks what one calls her, not her name (reading 2026-11-27za)
    if (
        not _zh_noun_phrase(x)
        or any(t.text == "名字" for t in x)
        or x[0].text in ("有", "有个", "有一个", "问")
    ):
        return None  # "...的名字的名字"; 有个韩国男明星的名字是什么 (reading 2026-11-27j)
    return f"{q[x[0].start : x[-1].end]}的名字是什么{mark}"


def _zh_when_time(q: str, toks: list[TaggedToken]) -> str | None:
    """新金瓶梅什么时候上映 -> 新金瓶梅上映的时间是什么时候: "when" asked as "the time of". The subject a
    noun phrase, the verb after it of two characters or more and closing the question; not 在 / 从什么时候,
    是 ... 的, 什么时候 ... 最好."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    pairs = [k for k in range(len(words) - 1) if words[k : k + 2] == ["什么", "时候"]]
    if len(pairs) != 1 or words.count("什么") != 1:
        return None  # jieba cuts 什么时候 in two
    k = pairs[0]
    x, after = body[:k], body[k + 2 :]
    if len(after) != 1 or after[0].tag != "v" or len(after[0].text) < 2 or not _zh_noun_phrase(x):
        return None  # 年终奖什么时候发 -> 发的时间 reads badly; 什么时候吃最好: not a time of one event
    if any(t.text in _ZH_QUESTION for t in x) or after[0].text.startswith("好"):
        return None  # 北京欢乐谷什么时候好玩: "好玩的时间" (reading 2026-11-27j)
    return f"{q[x[0].start : x[-1].end]}{after[0].text}的时间是什么时候{mark}"


def _zh_use(q: str, toks: list[TaggedToken]) -> str | None:
    """支付宝金账户有什么用 -> 支付宝金账户的用途是什么."""
    found = _zh_frame(q, toks, ("有", "什么", "用"))
    if not found:
        return None
    x, mark = found
    if not _zh_noun_phrase(x) or x[0].text in ("学", "做", "当", "读"):
        return None  # 学建筑有什么用 asks what the point is, not a use (reading 2026-11-27j)
    return f"{q[x[0].start : x[-1].end]}的用途是什么{mark}"


# Verbs that take the thing named before "how" as their object, so that it can follow them: 领带怎么系 ->
# 怎么系领带. Not a verb that holds its own object (开户, 充电, 截图: 股票怎么开户 is not 怎么开户股票), nor one
# with other readings (说, 走, 办, 去, 上).
_HOW_FRONT_VERBS = {
    "写", "做", "下载", "用", "吃", "打", "玩", "画", "看", "治疗", "查", "去除", "注册", "读", "恢复", "开", "找回",
    "删除", "处理", "设置", "改", "查询", "升级", "找", "刷", "去掉", "清洗", "申请", "买", "修改", "治", "洗", "注销",
    "折", "取消", "求", "开通", "获得", "使用", "制作", "解锁", "养", "安装", "打开", "破解", "调", "计算", "算",
    "装修", "换", "激活", "办理", "修", "拆", "补办", "填", "调理", "推广", "解", "翻译", "剪", "更新", "保存", "消除",
    "修复", "领", "炒", "洗掉", "解除", "学", "练", "煮", "关", "织", "交", "举报", "编", "补", "保养", "关闭", "解决",
    "种", "拼", "打理", "选", "喝", "戴", "选择", "贴", "退出", "叠", "穿", "领取", "卖", "删", "设计", "护理", "念",
    "泡", "唱", "预约", "更改", "隐藏", "清理", "转发", "控制", "备份", "兑换", "加密", "查看", "屏蔽", "维修", "上传",
    "填写", "化解", "矫正", "染", "称呼", "搭配", "加盟", "解封", "操作", "系", "接", "装", "抢", "扎", "考", "形容",
    "配", "登录", "登陆", "复习", "挂失", "提高", "提升", "减掉", "烧", "吹", "解释", "加入", "绣", "区分",
}  # fmt: skip
# Words that make the thing before "how" more than the verb's object: a preposition (从香港怎么到广州, 用日语怎么写),
# a subject that acts (我, 你), a degree or a negation.
_HOW_FRONT_NOT = {"对", "对于", "关于", "在", "用", "从", "把", "给", "跟", "和", "与", "被", "让", "向", "到", "我", "你", "他",
                  "她", "它", "我们", "你们", "他们", "不", "没", "没有", "还", "也", "又", "都", "就", "才", "是",
                  "想", "请问", "请", "知道"}  # fmt: skip
_HOW_MODALS = ("要", "该", "应该", "应当", "可以", "能")


def _zh_topic(q: str, x: list[TaggedToken], verb: str) -> bool:
    """Is ``x``, fronted before a question word and ``verb``, a thing that can follow the verb as its object
    (领带 in 领带怎么系), and not a clause, a time or a title?"""
    if not x or _zh_asks_more(x) or x[-1].text in _HOW_MODALS:
        return False  # 查理九世全集要去哪里下载: the modal stays with its verb
    if any(t.text in _HOW_FRONT_NOT for t in x):
        return False  # 我想知道 ...; 我的世界蘑菇怎么种 (the game, not "my world", reading 2026-11-27n)
    if x[-1].text in ("的", "了", "得", "着", "过") or x[-1].tag.startswith(("p", "c", "u", "f", "v")):
        return False  # 头发怎么扎得好看: no thing to act on; 侠盗飞车联机怎么玩: an activity, not a thing
    if x[-1].text.endswith(("时候", "时", "后", "前", "以后", "之后")) or any(t.tag in ("m", "q") for t in x):
        return False  # 去面试的时候要怎么做: a time, not a thing; 作文一件有趣的事怎么写: a title
    if verb in q[: x[-1].end] or any(
        t.tag.startswith("d") or t.tag.startswith("v") and t.text.startswith(("不", "没")) for t in x
    ):
        return False  # 支付宝交话费怎么交: the verb twice; 淘宝店铺不用代码怎么装修: a condition
    if any(t.text in ("了", "当", "如果") for t in x):
        return False  # 忘了考号研究生成绩怎么查询, 当 ... 如何处理: a clause
    if verb in ("写", "读", "念") and (any(t.text == "的" for t in x) or len(x) > 1 and x[0].tag != "n"):
        return (
            False  # 亲爱的韩语怎么写, 高的行书怎么写: a word in a script or a language, not a thing to write
        )
    return not any(ch.isspace() for ch in q[x[0].start : x[-1].end])


def _zh_how_front(q: str, toks: list[TaggedToken]) -> str | None:
    """领带怎么系 -> 怎么系领带, 毛囊炎如何治疗 -> 如何治疗毛囊炎, 鲤鱼要怎么做 -> 要怎么做鲤鱼: the thing a
    "how to" question is about put back after its verb, where Chinese fronted it as the topic. Only a listed
    verb closing the question (one that takes an object), and before "how" a thing, not a clause."""
    body, mark = _zh_split_tail(q, toks)
    k = _zh_how_at(body)
    if k is None or k + 2 != len(body) or body[-1].text not in _HOW_FRONT_VERBS:
        return None
    x = body[:k]
    modal = ""
    if x and x[-1].text in _HOW_MODALS:
        modal, x = x[-1].text, x[:-1]
    if not _zh_topic(q, x, body[-1].text):
        return None
    return f"{modal}{body[k].text}{body[-1].text}{q[x[0].start : x[-1].end]}{mark}"


# Verbs of getting or using a thing somewhere: X哪里买 -> 在哪里可以买X.
_WHERE_VERBS = {"买", "下载", "看", "办理", "办", "充值", "领取", "报名", "修", "打印", "兑换", "学", "玩", "购买",
                "观看", "查询", "查", "申请", "换", "补办", "收听", "听", "租", "挂号", "注册", "领", "吃"}  # fmt: skip


def _zh_where_front(q: str, toks: list[TaggedToken]) -> str | None:
    """天天酷跑在哪里下载 -> 在哪里可以下载天天酷跑, 总决赛哪里看 -> 在哪里可以看总决赛: where to get or use a
    thing, the thing after its verb (去哪里 stays 去哪里)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    at = [k for k, w in enumerate(words) if w in ("哪里", "哪儿")]
    if len(at) != 1 or at[0] + 2 != len(body) or words[-1] not in _WHERE_VERBS:
        return None
    k = at[0]
    x, prep = body[:k], "在"
    if x and x[-1].text in ("在", "去", "到"):
        prep, x = x[-1].text, x[:-1]
    if not _zh_topic(q, x, words[-1]):
        return None
    return f"{prep}哪里可以{words[-1]}{q[x[0].start : x[-1].end]}{mark}"


_ZH_DEGREE = ("最", "比较")


def _zh_best(q: str, toks: list[TaggedToken]) -> str | None:
    """什么植物最耐寒 -> 最耐寒的植物是什么, 中国什么大学最好 -> 中国最好的大学是什么, 现在什么行业比较热门 ->
    现在比较热门的行业是什么: "which N is the most A" asked as "what is the most A N". Before 什么 a place, a
    time or a topic (nouns), not a verb: 现在穿什么衣服最流行 asks what to wear."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if words.count("什么") != 1:
        return None
    k = words.index("什么")
    rest = words[k + 1 :]
    if len(rest) == 2 and rest[1].startswith("最") and len(rest[1]) > 1:
        degree, adj = "最", rest[1][1:]
    elif len(rest) == 3 and rest[1] in _ZH_DEGREE:
        degree, adj = rest[1], rest[2]
    else:
        return None
    noun, x = body[k + 1], body[:k]
    if not noun.tag.startswith(("n", "j")) or len(noun.text) < 2 and noun.text != "人":
        return None  # 什么的, 什么都 ...
    if noun.text in ("时候", "时间", "地方", "牌子", "品牌") or any(t.text.endswith("用") for t in x):
        return None  # 什么时候最高: 最高的时候是什么 (reading 2026-11-27o); X品牌什么牌子; 店用 (jieba's cut of 用)
    if any(not t.tag.startswith(("n", "t", "j", "eng", "s")) for t in x) or adj in ("好的", "多"):
        return None  # 现在穿什么衣服最流行: the thing chosen is an object
    head = q[x[0].start : x[-1].end] if x else ""
    return f"{head}{degree}{adj}的{noun.text}是什么{mark}"


# What a thing is of a kind that "X是什么N" asks, said as "X的N是什么".
_PROPERTIES = {"牌子", "品牌", "型号", "颜色", "材质", "面料", "字体", "星座", "血型", "国籍", "尺码", "格式",
               "单位", "学历", "车型", "款式"}  # fmt: skip


def _zh_property(q: str, toks: list[TaggedToken]) -> str | None:
    """这鞋子是什么牌子 -> 这鞋子的牌子是什么, 本图是什么字体的 -> 本图的字体是什么."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if words and words[-1] == "的":
        words, body = words[:-1], body[:-1]
    if len(words) < 4 or words[-3:-1] != ["是", "什么"] or words[-1] not in _PROPERTIES:
        return None
    x = body[:-3]
    if not _zh_noun_phrase(x) or any(t.text in ("有", "有个", "我", "的") for t in x):
        return None  # 加拿大的国旗的颜色 (two 的)
    if words[-1] == "颜色" and x[-1].text.endswith("色"):
        return None  # 蜜橙色是什么颜色 asks what the colour looks like
    if len(x) == 1 and (x[0].tag == "eng" or x[0].tag.startswith("nz")):
        return None  # hazzys是什么牌子 asks what kind of brand it is, not its brand (reading 2026-11-27v)
    return f"{q[x[0].start : x[-1].end]}的{words[-1]}是什么{mark}"


# Nouns of what a thing has that "X有什么N" asks for, said as "X的N是什么" (不同 as 不同之处).
_ATTRIBUTES = {
    "作用", "好处", "功效", "用处", "区别", "危害", "特点", "意义", "影响", "副作用", "优点", "缺点", "症状", "寓意",
    "讲究", "要求", "条件", "功能", "坏处", "特色", "效果", "后果", "价值", "技巧", "优势", "弊端", "风俗", "习俗",
    "来历", "典故", "规律", "禁忌", "注意事项", "表现", "特征", "联系", "关系", "差别", "差异", "不同", "爱好",
    "近义词", "反义词",
}  # fmt: skip


def _zh_attribute(q: str, toks: list[TaggedToken]) -> str | None:
    """多喝豆浆有什么好处 -> 多喝豆浆的好处是什么, 苹果和香蕉有什么区别 -> 苹果和香蕉的区别是什么, 长期熬夜会有
    什么危害 -> 长期熬夜的危害是什么: what a thing has, asked as what it is; and back (深蹲的坏处是什么 ->
    深蹲有什么坏处)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if len(words) >= 5 and words[-2:] == ["是", "什么"] and words[-3] in _ATTRIBUTES and words[-4] == "的":
        x = body[:-4]  # the other way: 深蹲的坏处是什么 -> 深蹲有什么坏处
        if not x or _zh_asks_more(x, {"的"}):
            return None
        if x[-1].tag.startswith(("p", "c", "u", "d", "r")):
            return None
        return f"{q[x[0].start : x[-1].end]}有什么{words[-3]}{mark}"
    if len(words) < 4 or words[-3:-1] != ["有", "什么"] or words[-1] not in _ATTRIBUTES:
        return None
    x = body[:-3]
    if x and x[-1].text in ("会", "都", "到底", "究竟", "一般", "主要", "具体"):
        x = x[:-1]  # 长期熬夜会有什么危害: the harm it has
    if not x or _zh_asks_more(x):
        return None
    if any(t.text == "的" for t in x) or x[-1].text in (
        "还",
        "也",
        "又",
        "能",
        "可以",
        "不",
        "没",
        "没有",
        "有",
        "中",
        "里",
        "上",
    ):
        return None  # 青蛙的脚的好处 (two 的); 喝茶还有什么好处 asks for more; 生活中有什么好处
    if x[-1].tag.startswith(("p", "c", "u", "d")) or (len(x) == 1 and x[0].tag.startswith("r")):
        return None  # 这有什么意义: a pronoun alone reads as a retort
    if len(x[-1].text) == 1 and x[-1].tag.startswith("v"):
        return None  # 醋泡鸡蛋吃的好处 (reading 2026-11-27n)
    noun = "不同之处" if words[-1] == "不同" else words[-1]
    return f"{q[x[0].start : x[-1].end]}的{noun}是什么{mark}"


def _zh_cause(q: str, toks: list[TaggedToken]) -> str | None:
    """空调不制冷是什么原因 -> 为什么空调不制冷, 恶心是什么原因造成的 -> 为什么会恶心: "what is the cause" asked as
    "why" (会 before a single word, which reads bare without it)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    for end in (("造成", "的"), ("引起", "的"), ("导致", "的"), ("造成",), ("引起",), ("导致",), ()):
        if len(end) and tuple(words[-len(end) :]) == end:
            words, body = words[: -len(end)], body[: -len(end)]
            break
    if words[-2:] != ["什么", "原因"]:
        return None
    x = body[:-3] if len(words) > 2 and words[-3] == "是" else body[:-2]
    if x and x[-1].text in ("，", ","):
        x = x[:-1]  # 空调不制冷，是什么原因
    if x and x[-1].text in ("一般", "通常", "主要", "到底", "究竟", "都"):
        x = x[:-1]  # 睾丸痛一般是什么原因造成的 -> 为什么睾丸痛
    if not x or _zh_asks_more(x):
        return None
    if (
        x[-1].text.endswith(("的", "是"))
        or x[-1].text in ("这", "那")
        or x[0].tag.startswith("r")
        and len(x) == 1
    ):
        return None  # 这是什么原因: no event of its own; 怕见光是 (jieba's word): no clean cut
    text = q[x[0].start : x[-1].end]
    if any(ch.isspace() for ch in text):
        return None
    return f"为什么{'会' if len(x) == 1 else ''}{text}{mark}"


_SUIT_DEGREE = {"好": "", "比较好": "比较", "最好": "最", "更好": "更"}


def _zh_suits(q: str, toks: list[TaggedToken]) -> str | None:
    """红米刷什么系统好 -> 红米适合刷什么系统, 送男生什么生日礼物好 -> 适合送男生什么生日礼物, 现在吃什么最好 ->
    现在最适合吃什么: "what is good to V" asked as "what suits V-ing". A verb right before 什么, after it a
    noun or nothing, then 好 (比较好, 最好); before the verb no speaker's modal (我应该用什么面膜比较好)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if len(words) < 3 or words.count("什么") != 1:
        return None
    if words[-2:] == ["比较", "好"]:
        body, words, degree = body[:-2], words[:-2], "比较"
    elif words[-1] in _SUIT_DEGREE:
        body, words, degree = body[:-1], words[:-1], _SUIT_DEGREE[words[-1]]
    else:
        return None
    k = words.index("什么")
    noun = body[k + 1 :]
    if k == 0 or len(noun) > 2 or any(not t.tag.startswith(("n", "j", "eng")) for t in noun):
        return None  # 产妇喝什么下奶好: a purpose, not a thing
    if any(t.text in ("牌子", "品牌", "牌") for t in noun):
        return None  # 倒车影像什么牌子好: which_good's (jieba tags 影像 a verb)
    verb, x = body[k - 1], body[: k - 1]
    if not noun and len(verb.text) > 1:
        return None  # 微信营销什么好: 微信营销 is one thing, not 微信 doing 营销 (reading 2026-11-27q)
    if not verb.tag.startswith("v") or verb.text in ("是", "有", "在", "适合", "对", "算", "会", "要"):
        return None
    if _zh_asks_more(x, _HOW_FRONT_NOT | set(_HOW_MODALS)):
        return None  # 我应该用什么 ..., 上班族，做什么: a speaker or a second clause
    head = q[x[0].start : x[-1].end] if x else ""
    return f"{head}{degree}适合{q[verb.start : body[-1].end]}{mark}"


# Acts that "多久可以" asks a deadline or a window for, not a wait: 差评多久可以修改, 怀孕多久可以做人流.
_DEADLINE_ACTS = (
    "修改",
    "撤销",
    "撤回",
    "取消",
    "退",
    "申诉",
    "投诉",
    "追加",
    "人流",
    "流产",
    "打掉",
    "补",
    "更改",
)


def _zh_how_long(q: str, toks: list[TaggedToken]) -> str | None:
    """运动完多久可以洗澡 -> 运动完要多久才能洗澡, 水痘多久能好 -> 水痘要多久才能好: "how long until one can"
    said the way people ask it. Not a time before (身份证到期前多久可以换: how long ahead)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if words.count("多久") != 1:
        return None
    k = words.index("多久")
    if k + 2 > len(words) - 1 or words[k + 1] not in ("可以", "能"):
        return None
    x = body[:k]
    if x and x[-1].text == "要":
        x = x[:-1]
    if not x or _zh_asks_more(x):
        return None
    if x[-1].text.endswith(("前", "之前", "以前")) or any(
        ch.isspace() for ch in q[x[0].start : body[-1].end]
    ):
        return None
    if any(w in q[body[k + 2].start :] for w in _DEADLINE_ACTS):
        return (
            None  # 淘宝差评多久可以修改 asks how long one still may, not how long until one can (reading q)
        )
    return f"{q[x[0].start : x[-1].end]}要多久才能{q[body[k + 2].start : body[-1].end]}{mark}"


def _zh_exist(q: str, toks: list[TaggedToken]) -> str | None:
    """有什么好看的洪荒小说 -> 好看的洪荒小说有哪些, 北京有什么好玩的地方 -> 北京好玩的地方有哪些, 现在有什么新电影 ->
    现在的新电影有哪些: "is there any N" asked as "which N are there". Before 有 nothing, a time or a place;
    after 什么 a noun phrase (a verb in it only before 的)."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if words.count("什么") != 1 or "有" not in words or words.index("什么") != words.index("有") + 1:
        return None
    k = words.index("有")
    x, rest = body[:k], body[k + 2 :]
    if not rest or len(rest) > 6 or not rest[-1].tag.startswith(("n", "eng", "j", "vn")):
        return None
    if _zh_bare(rest, lambda t: t.tag.startswith(("v", "d", "p", "c", "r", "m")) and t.tag != "vn"):
        return None  # 有什么办法能让 ...: a clause after the noun, not a noun phrase
    if _zh_asks_more(rest) or rest[0].text == "的":
        return None
    if rest[0].text in ("牌子", "品牌", "样", "样子", "种", "类", "类型", "款", "地方", "东西"):
        return None  # 有什么牌子的香烟: 什么牌子 is one question
    if rest[0].text == "好" and len(rest) > 1 and rest[1].text == "的":
        return None  # 好的励志的电视剧有哪些: 好的 first reads as "OK," (reading 2026-11-27t)
    appeal = rest[0].text in ("好看", "好玩", "好听", "好吃", "好用", "有趣", "搞笑", "经典", "好笑")
    if any(
        not t.tag.startswith(("t", "ns", "s"))
        and t.text not in ("现在", "最近", "目前", "如今")
        and not (appeal and t.tag.startswith(("n", "j")))
        for t in x
    ):
        return None  # 痛风有什么好的药: the topic is not where or when (男生有什么好看的发型: whom it suits)
    head = q[x[0].start : x[-1].end] if x else ""
    if head and x[-1].tag.startswith("t") and not any(t.text == "的" for t in rest):
        head += "的"  # 现在有什么新电影 -> 现在的新电影
    return f"{head}{q[rest[0].start : rest[-1].end]}有哪些{mark}"


def _zh_brand_last(q: str, toks: list[TaggedToken]) -> str | None:
    """什么牌子的手表好 -> 手表什么牌子好, 什么牌子的醋最好吃 -> 醋什么牌子最好吃: ``which_good`` the other way,
    the thing first."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if len(words) < 5 or words[:3] not in (
        ["什么", "牌子", "的"],
        ["什么", "品牌", "的"],
        ["哪个", "牌子", "的"],
    ):
        return None
    rest = body[3:]
    k = next((i for i, t in enumerate(rest) if not t.tag.startswith(("n", "eng", "j"))), None)
    if (
        not k
        or rest[k].text not in ("好", "比较", "最", "好用", "好吃", "好看")
        and not rest[k].text.startswith("最")
    ):
        return None  # no noun, or something other than "which is good" after it
    if _zh_asks_more(rest):
        return None
    if k > 2 or rest[k - 1].text in ("效果", "性能", "质量", "功能", "口碑", "价格", "效果"):
        return None  # 护肤品补水效果什么牌子最好: a quality of the thing, not the thing (reading 2026-11-27w)
    noun = q[rest[0].start : rest[k - 1].end]
    return f"{noun}{words[0]}{words[1]}{q[rest[k].start : body[-1].end]}{mark}"


def _zh_riddle(q: str, toks: list[TaggedToken]) -> str | None:
    """世事难料是什么生肖 -> 世事难料打一生肖, 七上八下指什么生肖 -> 七上八下打一生肖: a riddle asked the way
    riddles are set."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if len(words) < 4 or words[-2:] != ["什么", "生肖"] or words[-3] not in ("是", "指", "打"):
        return None
    x = body[:-3]
    while x and x[-1].text in ("是", "打"):
        x = x[:-1]  # 荣华富贵是指什么生肖, 懂得爱的动物打是什么生肖
    if not x or any(t.text in _ZH_QUESTION | set(_ZH_TAIL) for t in x):
        return None
    if x[0].tag.startswith("r") or x[-1].text in ("的", "我", "你", "他", "她", "人"):
        return None  # 我是什么生肖, 93年的人是什么生肖: one's own sign, not a riddle
    if any(ch.isdigit() for ch in q) or any(t.text.endswith(("年", "月", "日", "号")) for t in x):
        return None  # 1990年是什么生肖: a year's sign, not a riddle
    return f"{q[x[0].start : x[-1].end]}打一生肖{mark}"


def _zh_suit_swap(q: str, toks: list[TaggedToken]) -> str | None:
    """圆脸适合什么发型 -> 什么发型适合圆脸: the subject and the thing asked for change places."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if len(words) < 4 or words.count("适合") != 1 or words.count("什么") != 1:
        return None
    k = words.index("适合")
    if words[k + 1 : k + 2] != ["什么"] or k + 3 != len(words) or not body[-1].tag.startswith(("n", "vn")):
        return None
    x = body[:k]
    if not x or _zh_asks_more(x, _HOW_FRONT_NOT):
        return None
    if _zh_bare(
        x,
        lambda t: (
            t.tag.startswith(("v", "d", "p", "a")) or t.text.endswith(("高", "低", "大", "小", "宽", "窄"))
        ),
    ):
        return None  # 我这样适合 ..., 额头高适合 ...: a clause, not a thing that something suits (reading w)
    if any(t.text in ("男生", "女生", "男人", "女人", "男士", "女士", "男孩", "女孩") for t in x[:-1]):
        return None  # 男生鹅蛋脸适合: the person first, then the face (reading 2026-11-27w)
    return f"什么{words[-1]}适合{q[x[0].start : x[-1].end]}{mark}"


def _zh_how_topic(q: str, toks: list[TaggedToken]) -> str | None:
    """怎么做蛋糕 -> 蛋糕怎么做, 如何下载漫画 -> 漫画如何下载: ``how_front`` the other way, the thing asked about
    first as Chinese fronts a topic. A listed verb, then a noun phrase closing the question."""
    body, mark = _zh_split_tail(q, toks)
    if len(body) < 3 or body[0].text not in _ZH_HOW or body[1].text not in _HOW_FRONT_VERBS:
        return None
    obj = body[2:]
    if not obj[-1].tag.startswith(("n", "eng", "j")) or len(obj) > 4:
        return None
    if any(
        t.tag.startswith(("v", "p", "d", "c", "r", "m", "q")) or t.text in _ZH_QUESTION | set(_ZH_TAIL)
        for t in obj
    ):
        return None  # 怎么做一个 ..., 怎么用手机 ...: more than a thing
    if (
        obj[0].text.startswith("好")
        or any(t.tag == "nr" for t in obj)
        or obj[-1].text in ("图片", "图", "视频", "教程")
    ):
        return None  # 怎样写好毕业论文 (a result), 怎么做张子强 (to be him, reading 2026-11-27w)
    return f"{q[obj[0].start : obj[-1].end]}{body[0].text}{body[1].text}{mark}"


_LANGUAGES = (
    "韩文",
    "韩语",
    "英文",
    "英语",
    "日文",
    "日语",
    "繁体字",
    "繁体",
    "俄语",
    "法语",
    "德语",
    "粤语",
    "拼音",
)


def _zh_in_language(q: str, toks: list[TaggedToken]) -> str | None:
    """我爱你韩语怎么写 -> 我爱你用韩语怎么写, 永远的繁体字怎么写 -> 永远用繁体字怎么写: the language said as the
    means."""
    body, mark = _zh_split_tail(q, toks)
    words = [t.text for t in body]
    if len(words) < 4 or words[-2] != "怎么" or words[-1] not in ("写", "说", "读", "念", "翻译"):
        return None
    lang = words[-3]
    if lang not in _LANGUAGES:
        return None
    x = body[:-3]
    if not x or x[-1].text == "的" or _zh_asks_more(x, {"用"}):
        return None  # 亲爱的韩语怎么写: whether 的 is the phrase's own no one can tell (reading 2026-11-27w)
    text = q[x[0].start : x[-1].end]
    if any(ch.isspace() for ch in text) or text.endswith("用"):
        return None  # 太可爱了用日语怎么说: said so already
    out = f"{text}用{lang}怎么{words[-1]}{mark}"
    if "用" not in [t.text for t in pos_tag(out, "zh")]:
        return None  # 不要停日语怎么说 -> 不要停用日语: 停用 (disable) read as one word
    return out


# The frames of an indirect question, as people ask on a question site: (before, after, keeps the question
# mark). Chosen by the question's checksum, so that a set is not one template; "谁知道" not where the question
# asks "谁"; 我想知道 makes a statement (我想知道怎么寄明信片).
_INDIRECT_FRAMES = (
    ("你知道", "吗", True),
    ("谁知道", "", True),
    ("有谁知道", "吗", True),
    ("我想知道", "", False),
)
# Question words an indirect question can embed (jieba's words; 哪 / 几 / 怎 / 什么 as a word's first
# character: 哪家, 几年, 怎么样, 什么样), and words that are none (哪怕 "even if", 几乎 "almost", 怎能 asks nothing).
_INDIRECT_WH = (_ZH_QUESTION - {"吗"}) | {"多久", "多长", "多大", "多远", "多高"}
_INDIRECT_NOT_WH = {"哪怕", "几乎", "几何", "几率", "怎能"}
# A yes-no question already (you know whether ... 吗 would ask twice), a request, or a question that speaks
# to its reader (你知道你 ...): no indirect question.
_INDIRECT_REFUSED = ("吗", "是否", "能否", "可否", "与否", "知道", "请问", "问一下", "问下", "你", "您", "还是")  # fmt: skip
# The asker: a question about oneself asked of "whoever knows" reads wrong (谁知道我长得太帅了怎么办, reading
# 2026-11-27zn), and 我想知道我 ... says 我 twice.
_INDIRECT_ASKER = {"我", "我们", "俺", "本人"}
_INDIRECT_REQUESTS = ("求", "请", "帮", "推荐", "介绍", "给", "告诉", "麻烦", "跪求", "急求", "问", "谁有")  # 谁有: "send me"  # fmt: skip
# A search for pictures or files (我姓什么图片), not a question one asks a person.
_INDIRECT_QUERIES = {"图片", "图", "头像", "壁纸", "视频", "大全", "全集", "下载", "在线观看", "txt", "百度云"}  # fmt: skip
# A second clause or sentence; 什么都 / 谁也: a question word that asks nothing ("anything"); 么 a particle.
_INDIRECT_BREAKS = _ZH_CLAUSE | set(_ZH_TAIL) | {"…", "...", "都", "也", "么"}
_A_NOT_A = re.compile(r"(.)[不没]\1")  # 好不好, 能不能, 有没有: a yes-no question


def _zh_wh(t: TaggedToken) -> bool:
    w = t.text
    return w not in _INDIRECT_NOT_WH and (w in _INDIRECT_WH or w.startswith(("哪", "几", "怎", "什么")))


def _zh_indirect(q: str, toks: list[TaggedToken]) -> str | None:
    """这是什么意思 -> 你知道这是什么意思吗, 电脑怎么连接打印机 -> 有谁知道电脑怎么连接打印机吗: the question asked as
    an indirect one, its words unchanged. A fallback: the generator takes it only where no other candidate
    passes but a question-word swap (``pipeline.generate.FALLBACK_ORIGINS``), so that a set is not one
    template. Only a question with a question word of its own, in one clause, that asks something of no
    one in particular."""
    body, mark = _zh_split_tail(q, toks)
    if len(body) < 2 or not any(_zh_wh(t) for t in body):
        return None
    text = q[body[0].start : body[-1].end]
    if (
        not 5 <= len(text) <= 30  # 什么玩意: an exclamation more than a question
        or body[-1].text in _INDIRECT_QUERIES
        or any(ch.isspace() for ch in text)
        or any(w in text for w in _INDIRECT_REFUSED)
        or _A_NOT_A.search(text)
        or text.startswith(_INDIRECT_REQUESTS)
    ):
        return None
    if any(t.text in _INDIRECT_BREAKS for t in body):
        return None
    if any(t.text in _INDIRECT_ASKER for t in body):
        return None  # 我皮肤又黄又黑怎么办 -> 你知道我 ... 怎么办吗: one's own trouble (reading 2026-11-27zn)
    frames = [f for f in _INDIRECT_FRAMES if not ("谁" in f[0] and "谁" in text)]
    before, after, keeps_mark = frames[zlib.crc32(q.encode("utf-8")) % len(frames)]
    return f"{before}{text}{after}{mark if keeps_mark else ''}"


RULES = (
    ("copula_swap", _copula_swap),
    ("which_good", _zh_which_good),
    ("ask", _zh_ask),
    ("why_reason", _zh_why_reason),
    ("how_method", _zh_how_method),
    ("meaning", _zh_meaning),
    ("name", _zh_name),
    ("when_time", _zh_when_time),
    ("use", _zh_use),
    ("how_front", _zh_how_front),
    ("attribute", _zh_attribute),
    ("cause", _zh_cause),
    ("where_front", _zh_where_front),
    ("best", _zh_best),
    ("property", _zh_property),
    ("suits", _zh_suits),
    ("how_long", _zh_how_long),
    ("how_want", _zh_how_want),
    ("exist", _zh_exist),
    ("brand_last", _zh_brand_last),
    ("riddle", _zh_riddle),
    ("suit_swap", _zh_suit_swap),
    ("how_topic", _zh_how_topic),
    ("in_language", _zh_in_language),
    ("indirect", _zh_indirect),
)
