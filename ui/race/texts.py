"""Words of the race."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "賽跑：墨卿獨寫，對上師徒合寫", "en": "The race: the master alone against master and scribe"},
        "intro": {
            "zh": "同一個開頭、同一組設定、同樣的字數，兩種寫法各跑一次，各自計時。下面照它們真實的時間把字一個個寫出來："
            "獨寫的墨卿每寫一字都要看一眼；師徒合寫時，阿速先寫一行，墨卿一眼校完整行。溫度設為 0 時，兩邊寫出的字一模一樣。",
            "en": "The same prompt, settings and length, written both ways, each run timed on its own. Below, every character "
            "appears at the moment it was really written: the master alone glances once per character; with the "
            "scribe, A-Su drafts a line and the master checks it in one glance. At temperature 0 both write the same text.",
        },
        "start": {"zh": "▶ 開跑", "en": "▶ Start the race"},
        "again": {"zh": "再量一次", "en": "Time it again"},
        "slow": {"zh": "慢動作", "en": "Slow motion"},
        "slow_help": {
            "zh": "小模型在 CPU 上一秒寫好幾十字，太快看不清：時間放慢這麼多倍播放，兩邊放慢一樣多。",
            "en": "Small models write dozens of characters a second, too fast to follow: the replay is slowed by this "
            "factor, the same for both.",
        },
        "alone": {"zh": "墨卿獨寫", "en": "The master alone"},
        "together": {"zh": "墨卿＋阿速", "en": "Master + scribe"},
        "clock": {"zh": "時鐘：{t:.2f} 秒（實測時間）", "en": "Clock: {t:.2f} s (measured time)"},
        "count": {"zh": "{n} / {total} 字，{s:.2f} 秒", "en": "{n} of {total} tokens, {s:.2f} s"},
        "verdict": {
            "zh": "師徒合寫 {fast:.2f} 秒寫完，墨卿獨寫 {slow:.2f} 秒：速度是他獨寫的 {x:.2f} 倍。",
            "en": "Master and scribe finished in {fast:.2f} s, the master alone in {slow:.2f} s: {x:.2f} times as fast.",
        },
        "note": {
            "zh": "時間是剛剛在這台機器上量的（裝置 {device}，{tokens} 字），一次量測，會有起伏：速度實驗室會量多次。",
            "en": "The times were measured just now on this machine (device {device}, {tokens} tokens), once, so they vary: "
            "the speed lab measures many times.",
        },
    }
)
