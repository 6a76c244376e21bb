"""Chinese statements from questions: the question word replaced in place by the distractor, and the word
lists (place names, surnames, titles) that Chinese names are checked against."""

from __future__ import annotations

import re

from paraguide.perturb.base import Parsed, Skip
from paraguide.perturb.trap.english import _copy
from paraguide.perturb.trap.records import NUMERIC_TYPES, SLOT, TIME_TYPES, Frame, Mutation
from paraguide.text.entities import NAME_TYPES

# Question words, longest first (one regex alternation tries them in this order).
_ZH_TIME_WH = ("什么时候", "什么时间", "何时", "哪一年", "哪年", "哪一天", "哪天", "几月几号", "几月几日", "几月份",
               "几月", "几号", "几点")  # fmt: skip
_ZH_AMOUNT_WH = (
    "多少钱",
    "多少岁",
    "多长时间",
    "多大",
    "多高",
    "多长",
    "多远",
    "多久",
    "多重",
    "多少",
    "第几",
    "几",
)
_ZH_PLACE_WH = ("哪里", "哪儿")
_ZH_WHICH_WH = (
    "哪一个",
    "哪个",
    "哪些",
    "哪位",
    "哪家",
    "哪所",
    "哪种",
    "哪部",
    "哪款",
    "哪国",
    "哪一",
    "哪",
)
_ZH_ALL_WH = sorted((*_ZH_TIME_WH, *_ZH_AMOUNT_WH, *_ZH_PLACE_WH, *_ZH_WHICH_WH, "什么", "啥", "谁"), key=len,
                    reverse=True)  # fmt: skip
_ZH_WH_RE = re.compile("|".join(map(re.escape, _ZH_ALL_WH)))
_ZH_UNITS = re.compile(
    r"(?:个月|个|次|集|天|年|岁|元|块|人|名|位|只|件|条|张|本|辆|台|部|种|层|级|期|章|页|号|届|周年|周|小时|分钟|秒|米|公里|"
    r"千米|厘米|公斤|千克|克|吨|斤|平方米|平方|亩|升|度|倍|分|点|码|英寸|寸|卡|毫升|毫克|万|亿)"
)
_ZH_NOT_WH = re.compile(
    r"为什么|为何|为啥|怎么|怎样|如何|是否|能否|是不是|有没有|还是|几乎|几何|多少有|多大的"
)
_ZH_OPENERS = ("请问一下", "请问", "问一下", "问下")
_ZH_FINAL = "呢吗啊呀嘛哦"
_ZH_END = "。！？!?；;…\n"


def _zh_types(wh: str) -> tuple[str, ...]:
    if wh in _ZH_TIME_WH:
        return TIME_TYPES
    if wh == "谁":
        return NAME_TYPES
    if wh in _ZH_PLACE_WH:
        return ("location", "organization", "other_name")
    if wh == "多少钱":
        return ("money",)
    if wh == "第几":
        return ("ordinal",)
    if wh in ("多大", "多高", "多长", "多远", "多久", "多重", "多少岁", "多长时间"):
        return ("quantity",)
    if wh in _ZH_AMOUNT_WH:
        return ("number", "quantity", "money", "percent")
    return (*NUMERIC_TYPES, *NAME_TYPES)


def zh_frame(q: Parsed) -> Frame | Skip:
    """The statement a Chinese question becomes: the question word (with the noun or the classifier that
    belongs to it: "哪个国家", "几个", "哪一期") is replaced in place by the distractor (Chinese keeps question
    words where the answer goes), an opening 请问 and a final particle or question mark are dropped, and "。"
    ends it; a question without a question word that ends in a noun ("亚马逊市值") becomes "亚马逊市值是<slot>。".
    An amount or a time right after a noun takes 是 / 在 before it ("雅思多少钱" -> "雅思是3000元",
    "X什么时候上市" -> "X在2019年上市")."""
    text = q.text
    start, end = 0, len(text)
    for opener in _ZH_OPENERS:
        if text.startswith(opener):
            start = len(opener)
            break
    while end > start and (text[end - 1] in "？?。!！ \t" or text[end - 1] in _ZH_FINAL):
        end -= 1
    if end <= start:
        return Skip("empty question")
    body = text[start:end]
    starts = {t.start for t in q.tokens}
    # jieba reads "华为什么时候" as 华 / 为什么 / 时候: "为什么" before 时候 is the name's end and 什么时候
    for m in re.finditer("为什么(?=时候|时间)", text):
        starts.add(m.start() + 1)
    not_wh = [m for m in _ZH_NOT_WH.finditer(text, start, end) if m.start() in starts]
    if any(not (m.group(0) == "为什么" and m.start() + 1 in starts) for m in not_wh):
        return Skip("a why / how / yes-no / alternative question")
    if re.search(r"(?:最好|好|合适|划算|好看|好用)$", body):
        return Skip("an evaluative question")  # "北戴河什么时候去最好": a judgement, no fact to state
    found = list(_ZH_WH_RE.finditer(text, start, end))
    toks = [t for t in q.tokens if start <= t.start and t.end <= end]
    if not found:
        if toks and (toks[-1].tag.startswith("n") or toks[-1].tag in ("vn", "eng")):
            return Frame(((start, end), "是", SLOT), "noun-phrase", (*NUMERIC_TYPES, *NAME_TYPES))
        return Skip("no question word")
    if len(found) > 1:
        return Skip("more than one question word")
    m = found[0]
    wh = m.group(0)
    if m.start() not in starts:
        return Skip("question word inside a word")
    wh_end = m.end()
    unit = ""
    types = _zh_types(wh)
    nxt = next((t for t in q.tokens if t.start == wh_end), None)
    if nxt is not None and (nxt.tag.startswith("a") or nxt.text.startswith("最")) and wh not in _ZH_AMOUNT_WH:
        return Skip("an evaluative question")  # "哪个好", "什么最好": a judgement, no fact to state
    if wh in ("哪", "哪一", "第几") or wh in ("多少", "几"):
        u = _ZH_UNITS.match(text, wh_end, end)
        if u:  # "几个", "哪一期": the classifier goes with the question word
            unit, wh_end = u.group(0), u.end()
        elif wh == "哪一":
            return Skip("question word inside a word")
        if wh in ("哪", "哪一") and u:
            types = ("ordinal",)  # "哪一期" -> "第三期"
    if not unit and (wh in ("什么", "啥") or wh in _ZH_WHICH_WH):
        if nxt is not None and nxt.end <= end and nxt.tag.startswith("n"):
            wh_end = nxt.end  # "哪个国家", "什么品牌": the noun goes with the question word ...
            types = NAME_TYPES  # ... and a number would leave it out ("配什么主板" -> "配100")
            after = next((t for t in q.tokens if t.start == wh_end), None)
            if after is not None and (after.tag.startswith("a") or after.text.startswith("最")):
                return Skip("an evaluative question")  # "哪个版本好看"
        elif wh in ("哪", "哪一"):
            before = text[m.start() - 1 : m.start()]
            if before not in ("在", "去", "到", "从", "来"):
                return Skip("no rule for this question form")  # "哪来的"
            types = ("location", "organization", "other_name")
    elif wh == "多少岁":
        unit = "岁"
    parts: list = []
    if m.start() > start:
        parts.append((start, m.start()))
    before = text[m.start() - 1 : m.start()] if m.start() > start else ""
    verb_before = any(t.tag[:1] in ("v", "p") or t.text == "是" for t in toks if t.end <= m.start())
    if wh in ("什么时候", "什么时间", "何时") and before and before not in "是在于从到自":
        # "X什么时候上市" -> "X在2019年上市"; "X什么时候成立的" -> "X是1987年成立的"
        parts.append("是" if body.endswith("的") else "在")
    elif (
        wh in ("多少钱", "多少", "几", "多大", "多高", "多长", "多远", "多重") and before and not verb_before
    ):
        # "雅思多少钱" -> "雅思是3000元", "长春市几个区" -> "长春市有14个区"; "能贷款多少" stays "能贷款11万"
        parts.append("有" if unit and wh_end < end and not text[wh_end:end].startswith("钱") else "是")
    parts.append(SLOT)
    if wh_end < end:
        parts.append((wh_end, end))
    return Frame(tuple(parts), "wh-in-situ", types, "", unit)


def _zh_fill(frame: Frame, entity: str, kind: str) -> str | None:
    if frame.unit:
        if entity.endswith(frame.unit):
            return entity
        if kind == "number" and re.fullmatch(r"[\d０-９一二三四五六七八九十百千万亿两.]+", entity):
            return entity + frame.unit
        return None
    if re.fullmatch(r"\d{4}", entity) and frame.types == TIME_TYPES:
        return entity + "年"
    return entity


def _render_zh(q: Parsed, frame: Frame, fill: str, mutation: Mutation | None) -> str:
    out = "".join(
        fill if p is SLOT else _copy(q.text, p, mutation) if isinstance(p, tuple) else p for p in frame.parts
    )
    # no spaces between Chinese characters ("十九大 时间"); Latin words keep theirs
    out = re.sub(r"(?<=[\u3400-\u9fff])\s+|\s+(?=[\u3400-\u9fff])", "", out.strip())
    return out + "。"


# Mutations --------------------------------------------------------------------------------------------

_ZH_DIGITS = "一二三四五六七八九"
_ZH_MEASURES = set("个种次位名家本条只件张台辆天岁周层块份所项届部")
# Cilin's lists of proper places: cities, places, countries, capitals and provinces, rivers
_ZH_PLACE_LISTS = ("Cb25A11", "Cb08A", "Di02A23", "Di03B", "Be05B")
# the commonest surnames: a person's name in a passage starts with one ("傲娇", "春迎夏" do not)
_ZH_SURNAMES = set(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟"
    "谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安"
    "齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛"
    "靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧"
    "闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
# a person's name does not end in a title, a kinship word or a place's ending ("朱先生", "吴姓", "白鹿原")
_ZH_TITLES = ("先生", "女士", "小姐", "老师", "师傅", "总", "哥", "姐", "传", "记", "儿", "姓", "氏", "家", "原", "山",
              "河", "湖", "江", "城", "村", "镇", "州", "县", "区", "省", "路", "街", "园", "寺", "门", "岛")  # fmt: skip
# what may follow a name in a question: the name ends there ("赵启平和谁": "赵启" is no whole name)
_ZH_AFTER_NAME = set("的是和与跟在说演为被把将对给了吗呢有做去到从，,？?。 ")
_ZH_OPPOSITES = {}
for _a, _b in (
    ("大", "小"),
    ("高", "低"),
    ("多", "少"),
    ("长", "短"),
    ("早", "晚"),
    ("快", "慢"),
    ("贵", "便宜"),
    ("远", "近"),
    ("重", "轻"),
    ("强", "弱"),
    ("厚", "薄"),
    ("宽", "窄"),
    ("热", "冷"),
):
    for _x, _y in ((_a, _b), (_b, _a), ("最" + _a, "最" + _b), ("最" + _b, "最" + _a)):
        _ZH_OPPOSITES[_x] = _y
