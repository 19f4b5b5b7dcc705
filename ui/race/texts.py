"""Words of the race."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "賽跑：墨卿獨寫，對上師徒合寫", "en": "The race: the master alone against master and scribe"},
        "intro": {
            "zh": "同一組設定，兩種寫法輪流寫這組模型的 {n_prompts} 個範例開頭，各自計時：墨卿獨寫用他最快的寫法（不填稿紙上的表），"
            "兩邊每個開頭都寫一樣多的{units}，和速度實驗室的量測是同一份。下面照真實的時間，把中位數那個開頭的{units}一個個寫出來："
            "獨寫的墨卿每寫一個{unit}都要看一眼；師徒合寫時，阿速先寫一行，墨卿一眼校完整行。溫度設為 0 時，兩邊寫出的文字一模一樣；"
            "溫度高於 0 時兩邊抽籤不同，文字可能不同，但{unit}數一樣。",
            "en": "The same settings, written both ways in turn on the pair's {n_prompts} example prompts, each timed: the master "
            "alone at his fastest (none of the sheet's tables), and both ways writing as many {units} per prompt; this is the "
            "speed lab's measurement, the same one. Below, every {unit} of the median prompt appears at the moment it was "
            "really written: the master alone glances once per {unit}; with the scribe, A-Su drafts a line and the master "
            "checks it in one glance. At temperature 0 both write the same text; above 0 their draws differ, so their words "
            "may differ, but never their number.",
        },
        "start": {"zh": "▶ 開跑", "en": "▶ Start the race"},
        "again": {"zh": "再量一次", "en": "Time it again"},
        "again_help": {
            "zh": "重新量這組設定：新的結果換掉舊的，整台伺服器（包括速度實驗室）都看到新的。",
            "en": "Measure these settings afresh: the new result replaces the old one for everyone on this server, the speed lab included.",
        },
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
            "zh": "圖例：墨色的是蓋印通過的草稿和墨卿自己寫的{units}；朱色的是墨卿改正的{units}（阿速在那裡的草稿被退回，退回的草稿不寫出）。",
            "en": "Legend: {units} in ink are accepted drafts and the master's own; red ones are the master's corrections "
            "(A-Su's draft there was rejected, and rejected drafts are not written).",
        },
        "legend_past_end": {
            "zh": "{end} 是篇末，這篇寫完了；為了讓兩邊做一樣多的工，兩種寫法都照樣寫到規定的{unit}數，篇末之後寫的{units}畫成淡色，不算文章的一部分。",
            "en": "{end} ends the text; so that both ways do the same work, each goes on to the set number of {units}, and what "
            "follows the end is drawn faint: it is not part of the text.",
        },
        "verdict": {
            "zh": "速度是墨卿最快的獨寫的 {x:.2f} 倍（90% 信賴區間 {low:.2f}–{high:.2f} 倍）：{n} 個開頭、每個 {tokens} 個{unit}的總時間相比。"
            "上面重播的是「{prompt}」，{n} 個開頭裡加速居中的那一個：師徒合寫 {tokens} 個{unit}用了 {fast:.2f} 秒，墨卿獨寫用了 {slow:.2f} 秒。",
            "en": "{x:.2f} times as fast as the master alone at his fastest (90% interval {low:.2f}–{high:.2f}×): the total "
            "time of {n} prompts of {tokens} {units} each, compared. The replay above is “{prompt}”, the prompt of the {n} whose "
            "speedup is the median: master and scribe wrote its {tokens} {units} in {fast:.2f} s, the master alone in {slow:.2f} s.",
        },
        "note": {
            "zh": "裝置 {device}：兩種寫法在 {n} 個開頭上輪流先跑，每次剛好寫 {tokens} 個{unit}；和速度實驗室「實測一次」是同一個量法、同一份結果。",
            "en": "Device {device}: the two ways took turns on {n} prompts, each run writing exactly {tokens} {units}; the speed "
            "lab's Measure is the same measurement, the same result.",
        },
        # a tree run (issue 35): A-Su drafts a tree of variants, and a correction follows every variant of a depth struck
        "intro_tree": {
            "zh": "同一組設定，兩種寫法輪流寫這組模型的 {n_prompts} 個範例開頭，各自計時：墨卿獨寫用他最快的寫法（不填稿紙上的表），"
            "兩邊每個開頭都寫一樣多的{units}，和速度實驗室的量測是同一份。下面照真實的時間，把中位數那個開頭的{units}一個個寫出來："
            "獨寫的墨卿每寫一個{unit}都要看一眼；師徒合寫時，阿速先打一棵草稿樹（每一層有幾個異文），墨卿一眼看完整棵樹，由上往下走。"
            "溫度設為 0 時，兩邊寫出的文字一模一樣；溫度高於 0 時兩邊抽籤不同，文字可能不同，但{unit}數一樣。",
            "en": "The same settings, written both ways in turn on the pair's {n_prompts} example prompts, each timed: the master "
            "alone at his fastest (none of the sheet's tables), and both ways writing as many {units} per prompt; this is the "
            "speed lab's measurement, the same one. Below, every {unit} of the median prompt appears at the moment it was "
            "really written: the master alone glances once per {unit}; with the scribe, A-Su drafts a tree (several variants "
            "at a depth) and the master checks the whole tree in one glance, walking down it. At temperature 0 both write the "
            "same text; above 0 their draws differ, so their words may differ, but never their number.",
        },
        "legend_tree": {
            "zh": "圖例：墨色的是蓋印通過的草稿和墨卿自己寫的{units}；朱色的是墨卿改正的{units}（阿速在那一層的異文全被退回，退回的草稿不寫出）。",
            "en": "Legend: {units} in ink are accepted drafts and the master's own; red ones are the master's corrections "
            "(every variant A-Su drafted at that depth was rejected, and rejected drafts are not written).",
        },
    }
)
