"""Generate the bundled sample: several models answering the same questions.

    python scripts/make_sample.py            # writes xpert_frames/data/sample.parquet

Deterministic (seeded). Questions cover every answer type the toolkit handles, in Chinese and
English; each model has its own accuracy and answer style (terse, chain-of-thought, markdown,
full-width), and a few answers are missing (null), as when an inference call timed out.
To grow the sample, add questions to the tables below and re-run.
"""

from __future__ import annotations

import random
from pathlib import Path

import polars as pl

OUT = Path(__file__).resolve().parents[1] / "xpert_frames" / "data" / "sample.parquet"

MODELS = {  # name: (probability of a right answer, style)
    "qwen2.5-7b-instruct": (0.78, "cot_zh"),
    "glm-4-9b-chat": (0.7, "terse"),
    "llama-3.1-8b-instruct": (0.6, "cot_en"),
    "mistral-7b-instruct": (0.5, "markdown"),
    "internlm2.5-7b-chat": (0.72, "fullwidth"),
    "deepseek-v2-lite-chat": (0.75, "cot_en"),
    "yi-1.5-9b-chat": (0.65, "terse"),
}

# (question, choices, answer letter, language)
CHOICE = [
    ("中国的首都是哪里？", ["上海", "北京", "广州", "深圳"], "B", "zh"),
    ("下列哪个是质数？", ["21", "27", "29", "33"], "C", "zh"),
    ("水的化学式是什么？", ["H2O", "CO2", "O2", "NaCl"], "A", "zh"),
    ("《红楼梦》的作者是谁？", ["罗贯中", "施耐庵", "吴承恩", "曹雪芹"], "D", "zh"),
    ("光合作用主要发生在植物细胞的哪个结构中？", ["线粒体", "叶绿体", "细胞核", "液泡"], "B", "zh"),
    ("中医认为“肝主”什么？", ["疏泄", "运化", "纳气", "宣发"], "A", "zh"),
    ("Which planet is known as the Red Planet?", ["Venus", "Jupiter", "Mars", "Saturn"], "C", "en"),
    (
        "What is the boiling point of water at sea level in Celsius?",
        ["90", "100", "110", "120"],
        "B",
        "en",
    ),
    ("Which data structure uses FIFO order?", ["Stack", "Queue", "Tree", "Graph"], "B", "en"),
    (
        "Who wrote 'Pride and Prejudice'?",
        ["Jane Austen", "Charlotte Bronte", "Mary Shelley", "George Eliot"],
        "A",
        "en",
    ),
    (
        "What is the time complexity of binary search?",
        ["O(n)", "O(n log n)", "O(log n)", "O(1)"],
        "C",
        "en",
    ),
    (
        "Which gas do plants absorb from the atmosphere?",
        ["Oxygen", "Nitrogen", "Hydrogen", "Carbon dioxide"],
        "D",
        "en",
    ),
]

# (question, reference, wrong answer, language)
TEXT = [
    ("法国的首都是哪座城市？", "巴黎", "里昂", "zh"),
    ("“床前明月光”的下一句是什么？", "疑是地上霜", "举头望明月", "zh"),
    ("人体最大的器官是什么？", "皮肤", "肝脏", "zh"),
    ("What is the largest ocean on Earth?", "Pacific Ocean", "Atlantic Ocean", "en"),
    ("What is the chemical symbol for gold?", "Au", "Ag", "en"),
    ("Name the author of 'Hamlet'.", "William Shakespeare", "Christopher Marlowe", "en"),
]

# (question, reference value, unit, wrong value, language)
NUMBER = [
    ("小明有3个苹果，又买了5个，现在一共有几个？", "8", "个", "7", "zh"),
    ("一件衣服原价200元，打八折后多少元？", "160", "元", "180", "zh"),
    ("1/2 + 1/4 等于多少？", "0.75", "", "0.5", "zh"),
    ("一个正方形边长为4厘米，面积是多少平方厘米？", "16", "平方厘米", "8", "zh"),
    ("计算 12 × 15。", "180", "", "170", "zh"),
    ("What is 15% of 240?", "36", "", "32", "en"),
    (
        "A train travels 300 km in 2.5 hours. What is its average speed in km/h?",
        "120",
        "km/h",
        "125",
        "en",
    ),
    ("What is the square root of 144?", "12", "", "14", "en"),
    ("Solve for x: 3x - 7 = 11.", "6", "", "4", "en"),
    ("How many seconds are in one hour?", "3600", "s", "360", "en"),
]

# (source sentence, reference translation, language of the reference)
TRANSLATION = [
    (
        "The weather is nice today, let's go for a walk in the park.",
        "今天天气很好，我们去公园散步吧。",
        "zh",
    ),
    ("Machine learning models need large amounts of data.", "机器学习模型需要大量的数据。", "zh"),
    ("Please submit your report before Friday.", "请在周五之前提交你的报告。", "zh"),
    (
        "人工智能正在改变我们的生活方式。",
        "Artificial intelligence is changing the way we live.",
        "en",
    ),
    (
        "这家餐厅的菜很好吃，但是价格有点贵。",
        "The food at this restaurant is delicious, but the prices are a bit high.",
        "en",
    ),
    ("他每天早上六点起床跑步。", "He gets up at six every morning to go running.", "en"),
]
PARAPHRASE = {
    "今天天气很好，我们去公园散步吧。": "今天天气不错，我们去公园走走吧。",
    "机器学习模型需要大量的数据。": "机器学习的模型需要很多数据。",
    "请在周五之前提交你的报告。": "请于周五前提交报告。",
    "Artificial intelligence is changing the way we live.": "AI is changing how we live.",
    "The food at this restaurant is delicious, but the prices are a bit high.": (
        "This restaurant's food is tasty, but it is a little expensive."
    ),
    "He gets up at six every morning to go running.": "Every morning he wakes up at 6 to run.",
}

# (statement to judge, the right verdict as the dataset writes it, language)
JUDGE = [
    ("判断：地球是太阳系中最大的行星。", "错误", "zh"),
    ("判断：水在标准大气压下100摄氏度沸腾。", "正确", "zh"),
    ("判断：《西游记》的作者是吴承恩。", "对", "zh"),
    ("判断：光在真空中的传播速度小于声速。", "×", "zh"),
    (
        "True or false: The Great Wall of China is visible from the Moon with the naked eye.",
        "False",
        "en",
    ),
    ("True or false: DNA is a double helix.", "True", "en"),
    ("Is the following statement correct? Python lists are immutable.", "incorrect", "en"),
    ("True or false: 17 is a prime number.", "T", "en"),
]
_VERDICTS = {
    "zh": {True: ("正确", "对", "√"), False: ("错误", "错", "×")},
    "en": {True: ("True", "correct", "true"), False: ("False", "incorrect", "false")},
}
_TRUE = {"正确", "对", "√", "True", "true", "T", "correct"}

# (text to label, candidate labels, the right label, language)
LABEL = [
    (
        "评论：“物流太慢了，包装也破了，非常失望。”这条评论的情感是？",
        ["正面", "负面", "中性"],
        "负面",
        "zh",
    ),
    (
        "评论：“味道不错，服务也很热情，下次还来。”这条评论的情感是？",
        ["正面", "负面", "中性"],
        "正面",
        "zh",
    ),
    (
        "Review: 'The battery died after two days and support never answered.' Sentiment?",
        ["positive", "negative", "neutral"],
        "negative",
        "en",
    ),
    (
        "Premise: 'A man is playing a guitar on stage.' Hypothesis: 'A man is performing music.' "
        "Relation?",
        ["entailment", "neutral", "contradiction"],
        "entailment",
        "en",
    ),
    (
        "Premise: 'The store is closed on Sundays.' Hypothesis: 'The store opens every day.' "
        "Relation?",
        ["entailment", "neutral", "contradiction"],
        "contradiction",
        "en",
    ),
]

# (case description, reference, tcm_eval_type, right variant, wrong variant)
TCM = [
    (
        "患者神疲乏力，气短懒言，舌淡紫有瘀斑，脉涩。请辨证。",
        "气虚血瘀证",
        "syndrome",
        "患者表现为气虚血瘀证，建议补气活血。",
        "辨证为气滞血瘀证。",
    ),
    (
        "患者胁肋胀痛，情志抑郁，纳呆便溏。请辨证。",
        "肝郁脾虚证",
        "syndrome",
        "诊断为肝郁脾虚证。",
        "诊断为肝郁气滞证。",
    ),
    (
        "患者腰膝酸软，畏寒肢冷，小便清长。请辨证。",
        "肾阳虚证",
        "syndrome",
        "证属肾阳虚。",
        "证属肾阴虚，治宜滋阴。",
    ),
    (
        "患者胃脘隐痛反复发作三年，胃镜示胃黏膜慢性炎症。请给出西医病名。",
        "慢性胃炎",
        "disease",
        "此病属于慢性胃炎，中医辨证为脾胃虚弱。",
        "考虑为胃溃疡。",
    ),
    (
        "患者咳嗽咳痰，色黄质稠，发热。请给出中医病名。",
        "咳嗽",
        "disease",
        "中医诊断：咳嗽（痰热壅肺证）。",
        "中医诊断：哮病。",
    ),
    (
        "气阴两虚兼血瘀者，治法为何？",
        "补气养阴，活血化瘀",
        "treatment",
        "治法应以补气养阴，活血化瘀为主。",
        "治法以清热解毒为主。",
    ),
    ("肝郁脾虚者，治法为何？", "疏肝健脾", "treatment", "治宜疏肝健脾。", "治宜温补肾阳。"),
]


def letter_answer(letter: str, choices: list[str], style: str, lang: str) -> str:
    content = choices["ABCD".index(letter)]
    if style == "terse":
        return letter
    if style == "fullwidth":
        return f"答案：（{chr(ord(letter) + 0xFEE0)}）"
    if style == "markdown":
        return f"**答案：{letter}**" if lang == "zh" else f"The correct option is **{letter}**."
    if style == "cot_zh":
        return (
            f"我们逐项分析各个选项。{content}符合题意，其余选项不正确。综上所述，本题选{letter}。"
        )
    return (
        f"Let's think step by step. Option {letter} ({content}) fits the question best, "
        f"so the answer is {letter}."
    )


def text_answer(value: str, style: str, lang: str) -> str:
    if style == "terse":
        return value
    if style == "fullwidth":
        return f"{value}。"
    if style == "markdown":
        return f"**{value}**"
    return f"答案是{value}" if lang == "zh" else f"The answer is {value}."


def number_answer(value: str, unit: str, style: str, lang: str) -> str:
    if style == "terse":
        return value
    if style == "fullwidth":
        return "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in value) + unit
    if style == "markdown":
        return f"$\\boxed{{{value}}}$"
    if style == "cot_zh":
        return f"根据题意列式计算，得到结果。所以答案是{value}{unit}。"
    return (
        f"Working through the arithmetic step by step, the final answer is {value} {unit}".strip()
    )


def judge_answer(truth: bool, style: str, lang: str, rng: random.Random) -> str:
    word = rng.choice(_VERDICTS[lang][truth])
    if style == "terse":
        return word
    if style == "fullwidth":
        return f"答：{'√' if truth else '×'}" if lang == "zh" else f"Answer：{word}"
    if style == "markdown":
        return f"**{word}**" if lang == "zh" else f"**Answer:** {word}"
    if lang == "zh":
        return "这个说法是正确的。" if truth else "这个说法不正确，题干与事实不符，所以判断为错误。"
    return (
        "Checking the facts step by step, the statement holds, so it is true."
        if truth
        else "Checking the facts step by step, this is not true: the statement is false."
    )


def label_answer(label: str, labels: list[str], style: str, lang: str) -> str:
    if style == "terse":
        return label
    if style == "fullwidth":
        return f"答案：{label}。"
    if style == "markdown":
        return f"**标签：**{label}" if lang == "zh" else f"**Label:** {label}"
    if lang == "zh":
        return f"评论中表达的态度很明确，这段评论的情感倾向是{label}的。"
    other = next(x for x in labels if x != label)
    return f"It is not {other}; reading the text carefully, the answer is {label}."


def build(seed: int = 20261130) -> pl.DataFrame:
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    question_id = 0

    def add(
        model: str,
        task: str,
        lang: str,
        question: str,
        answer_type: str,
        answer: str,
        prediction: str | None,
        choices: list[str] | None = None,
        tcm_eval_type: str | None = None,
    ) -> None:
        rows.append(
            {
                "question_id": f"q{question_id:03d}",
                "model": model,
                "task": task,
                "language": lang,
                "question": question,
                "answer_type": answer_type,
                "answer": answer,
                "choices": None
                if choices is None
                else [{"id": "ABCDEFGH"[i], "content": c} for i, c in enumerate(choices)],
                "tcm_eval_type": tcm_eval_type,
                "prediction": prediction,
            }
        )

    for question, choices, letter, lang in CHOICE:
        question_id += 1
        for model, (skill, style) in MODELS.items():
            right = rng.random() < skill
            pick = letter if right else rng.choice([c for c in "ABCD" if c != letter])
            pred = None if rng.random() < 0.03 else letter_answer(pick, choices, style, lang)
            add(model, "knowledge_qa", lang, question, "choice", letter, pred, choices)
    for question, value, wrong, lang in TEXT:
        question_id += 1
        for model, (skill, style) in MODELS.items():
            pick = value if rng.random() < skill else wrong
            add(
                model, "short_answer", lang, question, "text", value, text_answer(pick, style, lang)
            )
    for question, value, unit, wrong, lang in NUMBER:
        question_id += 1
        for model, (skill, style) in MODELS.items():
            pick = value if rng.random() < skill else wrong
            pred = None if rng.random() < 0.03 else number_answer(pick, unit, style, lang)
            add(model, "math", lang, question, "number", value, pred)
    for question, verdict, lang in JUDGE:
        question_id += 1
        truth = verdict in _TRUE
        for model, (skill, style) in MODELS.items():
            said = truth if rng.random() < skill else not truth
            add(
                model,
                "true_false",
                lang,
                question,
                "judge",
                verdict,
                judge_answer(said, style, lang, rng),
            )
    for question, labels, label, lang in LABEL:
        question_id += 1
        for model, (skill, style) in MODELS.items():
            pick = label if rng.random() < skill else rng.choice([x for x in labels if x != label])
            pred = label_answer(pick, labels, style, lang)
            add(model, "classification", lang, question, "text", label, pred, labels)
    for source, reference, lang in TRANSLATION:
        question_id += 1
        for model, (skill, _style) in MODELS.items():
            roll = rng.random()
            pred = (
                reference
                if roll < skill / 2
                else PARAPHRASE[reference]
                if roll < skill
                else (PARAPHRASE[reference][: len(PARAPHRASE[reference]) // 2])
            )
            add(
                model,
                "translation",
                lang,
                f"翻译：{source}" if lang == "zh" else f"Translate: {source}",
                "text",
                reference,
                pred,
            )
    for question, reference, kind, right, wrong in TCM:
        question_id += 1
        for model, (skill, _style) in MODELS.items():
            pred = right if rng.random() < skill else wrong
            add(model, "tcm_diagnosis", "zh", question, "text", reference, pred, tcm_eval_type=kind)
    df = pl.DataFrame(
        rows,
        schema_overrides={
            "choices": pl.List(pl.Struct({"id": pl.String, "content": pl.String})),
            "tcm_eval_type": pl.String,
            "prediction": pl.String,
        },
    )
    return df.with_row_index("id").with_columns(pl.col("id").cast(pl.Int64))


def main() -> None:
    df = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    df.write_parquet(OUT)
    print(f"wrote {df.height} rows to {OUT}")


if __name__ == "__main__":
    main()
