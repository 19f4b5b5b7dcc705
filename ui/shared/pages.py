"""The seven pages' titles, in the order the navigation lists them."""
from ui.shared.i18n import language

PAGE_TITLES = {
    "parable": {"zh": "寓言：墨卿與阿速", "en": "The parable"},
    "scriptorium": {"zh": "御筆樓：逐輪抄寫", "en": "The scriptorium"},
    "iron_rule": {"zh": "鐵律", "en": "The iron rule"},
    "proof": {"zh": "分毫不差", "en": "Indistinguishable"},
    "race": {"zh": "賽跑", "en": "The race"},
    "speed_lab": {"zh": "速度實驗室", "en": "The speed lab"},
    "archive": {"zh": "卷宗", "en": "The archive"},
}


def page_title(name: str) -> str:
    return PAGE_TITLES[name][language()]
