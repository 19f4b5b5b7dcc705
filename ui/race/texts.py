"""Words of the race."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "賽跑：墨卿獨寫，對上師徒合寫", "en": "The race: the master alone against master and scribe"},
        "intro": {
            "zh": "同一個開頭、同一組設定，兩種寫法各寫到篇末 ∎（或{unit}數上限），各自計時。下面照它們真實的時間把{units}一個個寫出來："
            "獨寫的墨卿每寫一個{unit}都要看一眼；師徒合寫時，阿速先寫一行，墨卿一眼校完整行。溫度設為 0 時，兩邊寫出的文字一模一樣；"
            "溫度高於 0 時兩邊抽籤不同，寫出的文字可能不同、長短也不同，所以比的是每秒寫幾個{unit}。",
            "en": "The same prompt and settings, written both ways to the end mark ∎ (or the length limit), each run timed on its own. Below, every "
            "{unit} appears at the moment it was really written: the master alone glances once per {unit}; with the "
            "scribe, A-Su drafts a line and the master checks it in one glance. At temperature 0 both write the same text; "
            "above 0 their draws differ, so their texts may differ in words and length, and the race compares {units} per second.",
        },
        "start": {"zh": "▶ 開跑", "en": "▶ Start the race"},
        "again": {"zh": "再量一次", "en": "Time it again"},
        "slow": {"zh": "慢動作", "en": "Slow motion"},
        "slow_help": {
            "zh": "小模型在 CPU 上一秒寫好幾十個{unit}，太快看不清：時間放慢這麼多倍播放，兩邊放慢一樣多。",
            "en": "Small models write dozens of {units} a second, too fast to follow: the replay is slowed by this "
            "factor, the same for both.",
        },
        "alone": {"zh": "墨卿獨寫", "en": "The master alone"},
        "together": {"zh": "墨卿＋阿速", "en": "Master + scribe"},
        "clock": {"zh": "時鐘：{t:.2f} 秒（實測時間）", "en": "Clock: {t:.2f} s (measured time)"},
        "count": {"zh": "{n} / {total} 個{unit}，{s:.2f} 秒", "en": "{n} of {total} {units}, {s:.2f} s"},
        "legend": {
            "zh": "圖例：墨色的是蓋印通過的草稿和墨卿自己寫的{units}；朱色的是墨卿改正的{units}（阿速在那裡的草稿被退回，退回的草稿不寫出）；"
            "∎ 是篇末：這篇寫完了，這一道就停在這裡。",
            "en": "Legend: {units} in ink are accepted drafts and the master's own; red ones are the master's corrections "
            "(A-Su's draft there was rejected, and rejected drafts are not written); ∎ is the end mark: the text is done, "
            "and the lane stops there.",
        },
        "verdict": {
            "zh": "速度是墨卿獨寫的 {x:.2f} 倍：{runs} 次量測的中位數，各次介於 {low:.2f} 與 {high:.2f} 倍之間。"
            "上面重播的是中位數那一次：師徒合寫 {n_fast} 個{unit}用了 {fast:.2f} 秒，墨卿獨寫 {n_slow} 個{unit}用了 {slow:.2f} 秒；比的是每秒寫幾個{unit}。",
            "en": "{x:.2f} times as fast as the master alone: the median of {runs} runs, which ranged from {low:.2f}× to {high:.2f}×. "
            "The replay above is the median run: master and scribe wrote {n_fast} {units} in {fast:.2f} s, the master alone "
            "{n_slow} {units} in {slow:.2f} s; the race compares {units} per second.",
        },
        "note": {
            "zh": "量於伺服器時間 {clock}（{ago}），裝置 {device}：兩種寫法各跑 {runs} 次、輪流先跑，每次寫到篇末 ∎ 或 {tokens} 個{unit}為止。"
            "同樣設定的結果整台伺服器共用，要重新量請按「再量一次」；速度實驗室量得更多。",
            "en": "Measured at {clock} server time ({ago}) on device {device}: each way ran {runs} times, taking turns to go "
            "first, each run stopping at the end mark ∎ or at {tokens} {units}. A result is shared by everyone on this server "
            "with the same settings: press “Time it again” for a fresh one. The speed lab measures more.",
        },
        "ago_now": {"zh": "不到一分鐘前", "en": "less than a minute ago"},
        "ago_minutes": {"zh": "{n} 分鐘前", "en": "{n} min ago"},
        # a tree run (issue 35): A-Su drafts a tree of variants, and a correction follows every variant of a depth struck
        "intro_tree": {
            "zh": "同一個開頭、同一組設定，兩種寫法各寫到篇末 ∎（或{unit}數上限），各自計時。下面照它們真實的時間把{units}一個個寫出來："
            "獨寫的墨卿每寫一個{unit}都要看一眼；師徒合寫時，阿速先打一棵草稿樹（每一層有幾個異文），墨卿一眼看完整棵樹，由上往下走。"
            "溫度設為 0 時，兩邊寫出的文字一模一樣；溫度高於 0 時兩邊抽籤不同，寫出的文字可能不同、長短也不同，所以比的是每秒寫幾個{unit}。",
            "en": "The same prompt and settings, written both ways to the end mark ∎ (or the length limit), each run timed on its own. Below, every "
            "{unit} appears at the moment it was really written: the master alone glances once per {unit}; with the "
            "scribe, A-Su drafts a tree (several variants at a depth) and the master checks the whole tree in one glance, "
            "walking down it. At temperature 0 both write the same text; above 0 their draws differ, so their texts may "
            "differ in words and length, and the race compares {units} per second.",
        },
        "legend_tree": {
            "zh": "圖例：墨色的是蓋印通過的草稿和墨卿自己寫的{units}；朱色的是墨卿改正的{units}（阿速在那一層的異文全被退回，退回的草稿不寫出）；"
            "∎ 是篇末：這篇寫完了，這一道就停在這裡。",
            "en": "Legend: {units} in ink are accepted drafts and the master's own; red ones are the master's corrections "
            "(every variant A-Su drafted at that depth was rejected, and rejected drafts are not written); ∎ is the end "
            "mark: the text is done, and the lane stops there.",
        },
    }
)
