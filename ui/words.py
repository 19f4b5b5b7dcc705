"""Every word the app shows, in Traditional Chinese first and English second."""
from __future__ import annotations

LANGUAGES = {"zh": "繁體中文", "en": "English"}

WORDS = {
    "title": {"zh": "御筆樓：墨卿與阿速", "en": "The Scriptorium: Mo Qing and A-Su"},
    "intro": {
        "zh": "墨卿（目標模型）一次只寫一個字；阿速（草稿模型）一口氣寫一行。墨卿一眼校完整行：蓋印的字保留，第一個錯字以朱筆改正。",
        "en": "Mo Qing (the target model) writes one character per breath; A-Su (the draft model) dashes off a line. "
        "The master checks the whole line at one glance: sealed characters stay, the first wrong one is corrected in red.",
    },
    "language": {"zh": "語言", "en": "Language"},
    "pair": {"zh": "模型組", "en": "Model pair"},
    "device": {"zh": "運算裝置", "en": "Device"},
    "scribe": {"zh": "抄寫員（草稿）", "en": "Scribe (draft)"},
    "prompt": {"zh": "開頭", "en": "Prompt"},
    "k": {"zh": "每行草稿字數 k", "en": "Drafted tokens per line k"},
    "temperature": {"zh": "溫度", "en": "Temperature"},
    "top_p": {"zh": "top-p", "en": "top-p"},
    "seed": {"zh": "隨機種子", "en": "Seed"},
    "max_new": {"zh": "新寫字數", "en": "New tokens"},
    "run": {"zh": "開始抄寫", "en": "Write"},
    "legend": {
        "zh": "綠：蓋印接受　紅刪：被退回　紅：墨卿改正　藍：整行通過後的加筆",
        "en": "green: sealed  struck red: rejected  red: the master's correction  blue: bonus after a full line",
    },
    "tokens": {"zh": "寫成字數", "en": "Tokens written"},
    "forwards": {"zh": "墨卿校閱次數", "en": "Master forward passes"},
    "per_forward": {"zh": "每次校閱得字", "en": "Tokens per pass"},
    "alpha": {"zh": "接受率 α", "en": "Acceptance α"},
    "error": {"zh": "無法執行：", "en": "Cannot run: "},
    "placeholder": {
        "zh": "這是引擎的簡易頁面；完整的教學頁面（寓言、鐵律、分毫不差、速度實驗室、卷宗）即將加入。",
        "en": "A simple page over the engine; the full teaching pages (parable, iron rule, proof, speed lab, archive) come next.",
    },
}


def word(key: str, language: str) -> str:
    return WORDS[key][language]
