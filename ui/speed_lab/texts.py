"""Words of the speed lab (page 5, 速度實驗室), Traditional Chinese first, then English."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "「幾乎快了一倍」？速度實驗室", "en": "\"Almost twice as fast\"? The speed lab"},
        "intro": {
            "zh": "第五幕：阿速不能太差。抄寫員太慢，墨卿得乾等；抄寫員太差，墨卿白看一眼。"
            "快多少，由接受率 α 與成本比 c 決定；k 則是在「一行多寫幾個{unit}」與「越往後越容易被退回」之間取捨。"
            "這裡在這台機器上實測：同樣的{unit}數，墨卿獨自寫、阿速打草稿墨卿驗，交錯著跑。墨卿獨寫跑兩種："
            "最快的獨寫（同一個前向計算、同樣的取樣，不填稿紙上的候選表與紀錄），以及照稿紙的記錄路徑獨寫；加速以最快的獨寫為準。",
            "en": "Act five: the scribe must not be too poor. Too slow a scribe and the master waits; too poor a scribe "
            "and the master checks in vain. The acceptance rate α and the cost ratio c decide the speedup; k trades "
            "more drafted {units} per line against falling acceptance. Here we measure it on this machine: the same "
            "number of {units} written by the master alone and by scribe-then-master, interleaved side by side. The master alone "
            "writes twice: at his fastest (the same forward pass and sampling, none of the sheet's candidate tables or records) "
            "and through the sheet's recording path; the speedup is against his fastest.",
        },
        "formula": {
            "zh": "Leviathan 等人（2023）定理 3.8：加速 = (1 − α^(k+1)) / ((1 − α)(k·c + v))。"
            "分子是墨卿看一眼平均得到的{unit}數，分母是一輪的成本，以「墨卿寫一個{unit}的時間」（一口氣）為單位："
            "阿速寫 k 個{unit}各花 c，墨卿看 k+1 個{unit}花 v（驗證成本；論文假設 v = 1）。",
            "en": "Leviathan et al. (2023), Theorem 3.8: speedup = (1 − α^(k+1)) / ((1 − α)(k·c + v)). The numerator is "
            "the {units} one glance of the master yields on average; the denominator is a round's cost, in units of "
            "one master {unit} (one breath): k scribe {units} at c each, plus the glance over k+1 {units} at v "
            "(the verify cost; the paper assumes v = 1).",
        },
        "no_examples": {
            "zh": "這組模型沒有範例開頭，實驗室無從量起；請在側欄換一組模型。",
            "en": "This model pair has no example prompts to measure on; choose another pair in the sidebar.",
        },
        "measure": {"zh": "實測一次", "en": "Measure"},
        "measure_help": {
            "zh": "量側欄現在的設定。量過的設定會記住：側欄改回來時立刻顯示，不再重跑。",
            "en": "Measures the sidebar's settings as they are now. Settings measured before are remembered: moving the sidebar back shows them at once.",
        },
        "notes": {"zh": "講課筆記（用這次量到的數字）", "en": "Teaching notes (with this measurement's numbers)"},
        "note_greedy": {
            "zh": "- 溫度 0 時，師徒合寫出的文字與墨卿自己貪婪解碼完全相同（每位抄寫員、各種 k 都測過）：一鍵情境「貪婪」就是這個。",
            "en": "- At temperature 0 the text equals the master's own greedy decoding, {unit} for {unit} (tested for every "
            "scribe and several k): the “Greedy” scenario shows it.",
        },
        "note_verify": {
            "zh": "- 這台機器上，墨卿一眼校 {rows} 個位置，花了 {v:.2f} 次只寫一個{unit}的前向時間（裝置 {device}）。在 GPU 上大約是 1："
            "解碼時每次前向都要把全部權重讀一遍，受記憶體頻寬限制，多看幾個位置幾乎不加成本，這就是寓言裡「一眼校一行」。"
            "CPU 上算術隨列數增加，所以比 1 多。",
            "en": "- On this machine the master's glance over {rows} positions cost {v:.2f} one-{unit} forwards (device {device}). "
            "On a GPU it is about 1: every decoding forward reads all the weights, so it is bound by memory bandwidth and a "
            "few more positions cost almost nothing, the parable's “one glance checks a line”. On a CPU the arithmetic "
            "grows with the rows, so it costs more.",
        },
        "note_cost": {
            "zh": "- 阿速每寫一個{unit}花墨卿一次前向的 c = {c:.3f}；接受率 α = {alpha:.2f}。理論預測速度是墨卿獨寫的 {predicted:.2f} 倍，實測 {measured:.2f} 倍。",
            "en": "- Each drafted {unit} cost c = {c:.3f} of a master forward; acceptance α = {alpha:.2f}. Theory predicts "
            "{predicted:.2f}×, measured {measured:.2f}×.",
        },
        "note_twice_needs": {
            "zh": "- 快一倍？照定理 3.8 與這次的 c = {c:.3f}、v = {v:.2f}，k 在 1 到 {k_max} 之間取最好的，α 至少要 {need:.2f} 才到 2 倍"
            "（這次 α = {alpha:.2f}）。就算阿速打草稿不花時間（c = 0），α 也得至少 {need_free:.2f}：行再長，墨卿看一眼平均最多只得 1/(1 − α) 個{unit}。",
            "en": "- Twice as fast? By Theorem 3.8 with this run's c = {c:.3f} and v = {v:.2f}, at the best k from 1 to {k_max}, 2× needs "
            "α ≥ {need:.2f} (this run: α = {alpha:.2f}). Even a scribe who cost nothing (c = 0) would need α ≥ {need_free:.2f}: however "
            "long the line, one glance yields at most 1/(1 − α) {units} on average.",
        },
        "note_twice_allowed": {
            "zh": "- 快一倍？照定理 3.8，這次的 α = {alpha:.2f} 夠了：以這次的 c = {c:.3f}、v = {v:.2f}，k 在 1 到 {k_max} 之間取最好的，α ≥ {need:.2f} 就到 2 倍。",
            "en": "- Twice as fast? By Theorem 3.8 this run's α = {alpha:.2f} is enough: with its c = {c:.3f} and v = {v:.2f}, at the best k from "
            "1 to {k_max}, 2× needs α ≥ {need:.2f}.",
        },
        "note_twice_out_of_reach": {
            "zh": "- 快一倍？這個 c 做不到，阿速的 α 再高也一樣：即使每個草稿都被接受，一輪寫 k + 1 個{unit}要花 k·c + v；"
            "c = {c:.3f}、v = {v:.2f} 時，k 從 1 到 {k_max} 都不到 2 倍。",
            "en": "- Twice as fast? Not at this c, however high the scribe's α: even with every draft kept, a round writes k + 1 {units} "
            "for k·c + v, and with c = {c:.3f} and v = {v:.2f} that stays below 2× for every k from 1 to {k_max}.",
        },
        "measure_again": {
            "zh": "側欄的設定改了，這組還沒量過：按「實測一次」再量。",
            "en": "The sidebar's settings changed and these have not been measured: press Measure to measure them.",
        },
        "press_measure": {
            "zh": "按「實測一次」：用側欄選的抄寫員與 k，讓墨卿獨寫與阿速協寫各跑一遍，幾秒鐘就好。",
            "en": "Press Measure: the master alone and the scribe with the master each write with the sidebar's scribe and k; it takes a few seconds.",
        },
        "measuring": {
            "zh": "正在實測：{n} 個範例開頭，每個 {tokens} 個{unit}，墨卿獨寫（最快的與照稿紙記錄的）與阿速協寫交錯進行…",
            "en": "Measuring: {n} example prompts, {tokens} {units} each, the master alone (at his fastest and through the "
            "sheet's records) and scribe-with-master interleaved…",
        },
        "runs_one": {"zh": "一回", "en": "written once"},
        "runs_many": {"zh": "{n} 回", "en": "written {n} times"},
        "measured_on": {
            "zh": "量自這組模型的 {n} 個範例開頭（不是側欄的開頭，好讓每位抄寫員面對同樣的文字），每個 {tokens} 個{unit}、"
            "跑 {runs}；裝置 {device}，抄寫員「{scribe}」，k = {k}，溫度 {temperature:g}，手抖 {noise:g}，種子 {seed}。",
            "en": "Measured on the pair's {n} example prompts (not the sidebar's prompt, so every scribe faces the same text), "
            "{tokens} {units} each, {runs}; device {device}, scribe “{scribe}”, k = {k}, temperature {temperature:g}, "
            "shaky hand {noise:g}, seed {seed}.",
        },
        "m_alpha": {"zh": "接受率 α", "en": "Acceptance α"},
        "m_alpha_help": {
            "zh": "阿速每個草稿{unit}被墨卿蓋印的平均機率 min(1, p/q)：抄寫員有多像墨卿。只算墨卿讀到的{unit}，到第一個被劃掉的為止。",
            "en": "The mean chance min(1, p/q) that a drafted {unit} gets the master's seal: how much the scribe resembles the master. Only the drafts the master reached count, up to the first struck one.",
        },
        "m_c": {"zh": "成本比 c", "en": "Cost ratio c"},
        "m_c_help": {
            "zh": "阿速寫一個{unit}的時間 ÷ 墨卿寫一個{unit}的時間（實測）。",
            "en": "The scribe's time per {unit} over the master's time per {unit} (measured).",
        },
        "m_verify": {"zh": "驗證成本 v", "en": "Verify cost v"},
        "m_verify_help": {
            "zh": "墨卿一眼看 k+1 個{unit}的時間 ÷ 他寫一個{unit}的時間。GPU 上搬運權重是瓶頸，接近 1；CPU 上常大於 1。",
            "en": "The master's glance over k+1 {units} over his time for one. Near 1 on a GPU, where moving weights is the bottleneck; often above 1 on a CPU.",
        },
        "m_tokens": {"zh": "每看一眼得幾個{unit}", "en": "{Units} per glance"},
        "m_tokens_help": {
            "zh": "實測：寫出的{unit}數 ÷ 墨卿看的次數（含他自己補上的那一個{unit}）。每個開頭只寫幾十個{unit}，最後一眼只得到剩下的{unit}，"
            "所以它可能比定理的平均 (1 − α^(k+1)) / (1 − α) 低；下面的結論寫出這次的數字。",
            "en": "Measured: {units} written over the master's passes (including the one he adds himself). Each prompt is "
            "written for only a few dozen {units} and the last glance gets only what is left, so this can run below the theory's "
            "mean (1 − α^(k+1)) / (1 − α); the verdict below gives this run's numbers.",
        },
        "m_tps_spec": {"zh": "協寫：{unit}／秒", "en": "With scribe: {units}/s"},
        "m_tps_plain": {"zh": "墨卿最快的獨寫：{unit}／秒", "en": "Master alone, fastest: {units}/s"},
        "m_tps_plain_help": {
            "zh": "墨卿獨自寫：同一個前向計算、同樣的取樣與種子，但不填稿紙上的候選表，也不留逐輪紀錄。",
            "en": "The master writing alone: the same forward pass, sampling and seed, but none of the sheet's candidate "
            "tables and no per-round records.",
        },
        "m_tps_traced": {"zh": "墨卿照稿紙獨寫：{unit}／秒", "en": "Master alone, sheet's path: {units}/s"},
        "m_tps_traced_help": {
            "zh": "墨卿獨自寫，但走稿紙的記錄路徑：每寫一個{unit}都填一次候選表與紀錄。",
            "en": "The master writing alone through the sheet's recording path: candidate tables and records filled once a {unit}.",
        },
        "m_measured": {"zh": "實測加速（對墨卿最快的獨寫）", "en": "Speedup against the master's fastest plain decoding"},
        "m_measured_help": {
            "zh": "協寫的{unit}／秒 ÷ 墨卿最快的獨寫的{unit}／秒，同一次交錯實測。",
            "en": "{Units} per second with the scribe over the master's fastest plain decoding, from the same interleaved run.",
        },
        "m_measured_traced": {"zh": "實測加速（對照稿紙記錄的獨寫）", "en": "Speedup against the master's traced plain decoding"},
        "m_measured_traced_help": {
            "zh": "協寫的{unit}／秒 ÷ 墨卿照稿紙記錄路徑獨寫的{unit}／秒：記錄路徑每個{unit}填一次表，協寫每輪才填一次，所以這個數字偏高。",
            "en": "{Units} per second with the scribe over the master writing alone through the sheet's recording path, which "
            "fills its tables once a {unit} where the scribe's rounds fill them once a round: this figure runs high.",
        },
        "beside_headline": {
            "zh": "這次實測的 90% 信賴區間是 {low:.2f}–{high:.2f} 倍（{units} 少、開頭少，區間就寬）。同一次實測只計兩個模型的前向計算（不算迴圈的記帳）是 {forwards:.2f} 倍。",
            "en": "This measurement's 90% interval is {low:.2f}–{high:.2f}× (fewer prompts and {units}, a wider interval). "
            "Counting only the two models' forward passes, none of the loop's bookkeeping, the same run gives {forwards:.2f}×.",
        },
        "theory_outside": {
            "zh": "注意：理論的 {predicted:.2f} 倍落在這次實測的區間（{low:.2f}–{high:.2f} 倍）之外。定理 3.8 假設每個草稿位置的接受率都是同一個 α，"
            "而且只計前向計算；這次各位置的 α 見下面的長條圖，迴圈的記帳占了時間的 {overhead:.0%}。假設不成立的地方，就是兩者分開的地方。",
            "en": "Note: the theory's {predicted:.2f}× lies outside this measurement's interval ({low:.2f}–{high:.2f}×). "
            "Theorem 3.8 assumes one α at every drafted position and counts only forward passes; this run's α by position "
            "is in the bars below, and the loop's bookkeeping took {overhead:.0%} of its time. Where those assumptions fail, the two part.",
        },
        "recorded_before_fastest": {
            "zh": "這份錄好的結果早於實驗室量「墨卿最快的獨寫」：上面的加速是對照稿紙記錄路徑的獨寫（每個{unit}填一次表），比對最快的獨寫偏高；"
            "只計兩個模型的前向計算是 {forwards:.2f}×。按「實測一次」量對最快獨寫的加速。",
            "en": "This recording predates the lab's timing of the master's fastest plain decoding: the speedup above is against "
            "plain decoding through the sheet's recording path (tables filled once a {unit}), which runs higher than against "
            "the fastest; counting only the two models' forward passes, {forwards:.2f}×. Press Measure for the speedup against the fastest.",
        },
        "m_predicted": {"zh": "理論預測", "en": "Theory predicts"},
        "m_predicted_help": {
            "zh": "把上面實測的 α、c、v 代入定理 3.8 的公式。",
            "en": "Theorem 3.8's formula with the α, c and v measured above.",
        },
        "times": {"zh": "{x:.2f}×", "en": "{x:.2f}×"},
        "curve_title": {"zh": "理論加速隨 k 變化（代入實測的 α、c、v）", "en": "Theory's speedup over k (measured α, c, v)"},
        "axis_k": {"zh": "每行草稿{unit}數 k", "en": "Drafted {units} per line k"},
        "axis_speedup": {"zh": "加速（倍）", "en": "Speedup (×)"},
        "curve_theory": {"zh": "理論（v 用實測值）", "en": "Theory (measured v)"},
        "curve_paper": {"zh": "論文的假設（v = 1）", "en": "Paper's assumption (v = 1)"},
        "curve_measured": {"zh": "實測（目前的 k）", "en": "Measured (this k)"},
        "curve_earlier": {"zh": "先前實測（其他設定相同、k 不同）", "en": "Measured earlier (same settings, other k)"},
        "curve_best": {"zh": "理論最佳 k = {k}", "en": "Theory's best k = {k}"},
        "curve_plain": {"zh": "墨卿獨寫（1×）", "en": "Master alone (1×)"},
        "curve_caption": {
            "zh": "理論曲線以這次實測的 α、c 與 v（於 k = {k} 量得）畫出，並假設 v 不隨 k 改變；理論最佳 k = {best}，預測 {best_speedup:.2f}×。"
            "空心點是你先前在同樣設定下、以其他 k 實測的結果。",
            "en": "The theory's curve uses this run's α, c and v (measured at k = {k}) and holds v fixed over k; its best k is {best}, "
            "predicting {best_speedup:.2f}×. Hollow points are your earlier measurements at other k with the same settings.",
        },
        "split_title": {"zh": "每寫一個{unit}花幾毫秒", "en": "Milliseconds per {unit}"},
        "split_ms": {"zh": "毫秒／{unit}", "en": "ms per {unit}"},
        "split_speculative": {"zh": "阿速協寫", "en": "With the scribe"},
        "split_plain": {"zh": "墨卿照稿紙獨寫", "en": "Master alone, sheet's path"},
        "split_draft": {"zh": "阿速打草稿", "en": "Scribe drafts"},
        "split_verify": {"zh": "墨卿看（驗證或寫）", "en": "Master's passes (verify or write)"},
        "split_other": {"zh": "其他一切", "en": "Everything else"},
        "split_caption": {
            "zh": "從每個範例開頭再各跑一次（{tokens} 個{unit}）的逐輪紀錄加總：草稿與驗證是兩個模型的計算時間；"
            "「其他一切」是剩下的時間（判定接受、記錄、預填開頭、迴圈本身），理論公式不計這一塊。"
            "墨卿獨寫這一欄走稿紙的記錄路徑；最快的獨寫不留逐輪紀錄，無從分拆，所以不在圖上。",
            "en": "Summed from the round records of one more run of each method per example prompt ({tokens} {units}): drafts and "
            "verifies are the two models' forward passes; “everything else” is the remaining time (acceptance, recording, "
            "prefilling the prompt, the loop itself), which the theory's formula leaves out. The master-alone bar is his writing "
            "through the sheet's recording path; his fastest plain decoding keeps no per-round records to split, so it is not drawn.",
        },
        "fast": {
            "zh": "速度是墨卿獨寫的 {measured:.2f} 倍。照定理，α = {alpha:.2f}、k = {k} 時墨卿看一眼平均得到 {tokens:.2f} 個{unit}，"
            "而一輪只花 k·c + v = {k} × {c:.3f} + {verify_cost:.2f} = {cost:.2f} 口氣：多出來的{unit}就是省下的時間。",
            "en": "{measured:.2f}× as fast. By the theory, one glance of the master yields {tokens:.2f} {units} on average at α = {alpha:.2f}, k = {k}, "
            "while a round costs only k·c + v = {k} × {c:.3f} + {verify_cost:.2f} = {cost:.2f} breaths: the extra {units} are the time saved.",
        },
        "slow": {
            "zh": "這次比墨卿獨寫還慢（{measured:.2f}×）。用上面的數字說原因：",
            "en": "This time it is slower than the master alone ({measured:.2f}×). The numbers above say why:",
        },
        "slow_ratio": {
            "zh": "一輪下來，墨卿看一眼平均只得 {tokens:.2f} 個{unit}（α = {alpha:.2f}、k = {k} 的理論值），"
            "卻要花 k·c + v = {k} × {c:.3f} + {verify_cost:.2f} = {cost:.2f} 口氣。{tokens:.2f} ÷ {cost:.2f} = {predicted:.2f}×，"
            "得到的{unit}比花掉的時間少。",
            "en": "Each round one glance of the master yields only {tokens:.2f} {units} (theory for α = {alpha:.2f}, k = {k}), "
            "yet the round costs k·c + v = {k} × {c:.3f} + {verify_cost:.2f} = {cost:.2f} breaths. {tokens:.2f} ÷ {cost:.2f} = {predicted:.2f}×: "
            "fewer {units} come out than the time put in.",
        },
        "gain_on_paper": {
            "zh": "一輪下來，墨卿看一眼平均得到 {tokens:.2f} 個{unit}（α = {alpha:.2f}、k = {k} 的理論值），"
            "只花 k·c + v = {k} × {c:.3f} + {verify_cost:.2f} = {cost:.2f} 口氣。照公式速度應是獨寫的 {tokens:.2f} ÷ {cost:.2f} = {predicted:.2f} 倍，"
            "可是公式沒算到的時間把它吃掉了：",
            "en": "Each round one glance of the master yields {tokens:.2f} {units} (theory for α = {alpha:.2f}, k = {k}) for "
            "k·c + v = {k} × {c:.3f} + {verify_cost:.2f} = {cost:.2f} breaths. By the formula that is {tokens:.2f} ÷ {cost:.2f} = {predicted:.2f}× "
            "as fast, but time the formula does not count ate the gain:",
        },
        "glance_capped": {
            "zh": "實測每看一眼得 {measured_tokens:.2f} 個{unit}，低於定理的 {tokens:.2f}：每個開頭只寫 {length} 個{unit}，一眼最多得 k + 1 = {line} 個{unit}，"
            "{length} 個{unit}至少要看 {glances} 眼，最後一眼只得剩下的{unit}，所以這樣一段每眼最多 {cap:.2f} 個{unit}。定理算的是寫不完的長文。",
            "en": "Measured, a glance yielded {measured_tokens:.2f} {units}, below the theory's {tokens:.2f}: each prompt was written for "
            "only {length} {units}, a glance yields at most k + 1 = {line}, so {length} {units} take at least {glances} glances and "
            "the last gets only what is left: at most {cap:.2f} a glance for such a run. The theory counts an endless text.",
        },
        "glance_measured": {
            "zh": "實測每看一眼得 {measured_tokens:.2f} 個{unit}，定理的平均是 {tokens:.2f} 個{unit}。",
            "en": "Measured, a glance yielded {measured_tokens:.2f} {units}; the theory's mean is {tokens:.2f}.",
        },
        "reason_poor": {
            "zh": "阿速太差：α = {alpha:.2f}，墨卿常在一行開頭就蓋不下章，看一眼平均只得 {tokens:.2f} 個{unit}，其中一個還是他自己寫的。換一位更像墨卿的抄寫員（側欄滑桿往右）。",
            "en": "The scribe is too poor: α = {alpha:.2f}, so the master usually stops near the start of the line and a glance yields only "
            "{tokens:.2f} {units}, one of them his own. Choose a scribe who resembles the master more (slider to the right).",
        },
        "reason_poor_best": {
            "zh": "阿速太差：α = {alpha:.2f}，墨卿常在一行開頭就蓋不下章，看一眼平均只得 {tokens:.2f} 個{unit}，其中一個還是他自己寫的。"
            "他已是這組模型裡最像墨卿的抄寫員（滑桿已在最右），換人幫不上忙。",
            "en": "The scribe is too poor: α = {alpha:.2f}, so the master usually stops near the start of the line and a glance yields only "
            "{tokens:.2f} {units}, one of them his own. He is already the closest to the master this pair has (the slider is at its "
            "right end), so another scribe cannot help.",
        },
        "advice_noise": {
            "zh": "把手抖（現在 {noise:.2f}）調小：混進 q 的均勻分布越少，α 越高。",
            "en": "Lower the shaky hand (now {noise:.2f}): the less uniform noise is mixed into q, the higher α.",
        },
        "advice_k": {
            "zh": "讓他每行少寫幾個{unit}：照這次量到的 α、c 與 v，理論上最好的 k 是 {best_k}（現在 {k}）。",
            "en": "Let him draft a shorter line: for this run's α, c and v the theory's best k is {best_k} (now {k}).",
        },
        "advice_temperature": {
            "zh": "試試較低的溫度（現在 {temperature:.2f}）：手穩一點常能提高 α，但不一定；本頁的 k × 溫度實測會量出這台機器上是否如此。",
            "en": "Try a lower temperature (now {temperature:.2f}): a cooler hand often raises α, though not always; the k × temperature "
            "sweep on this page measures whether it does on this machine.",
        },
        "reason_slow": {
            "zh": "阿速太慢：寫 k 個{unit}要 k·c = {kc:.2f} 口氣，墨卿在旁乾等。換一位更快的抄寫員，或把 k 調小。",
            "en": "The scribe is too slow: his k {units} take k·c = {kc:.2f} breaths while the master waits. Choose a faster scribe, or a smaller k.",
        },
        "reason_verify": {
            "zh": "這台裝置上看一眼並不便宜：一次看 k+1 個{unit}要 v = {verify_cost:.2f} 口氣，不是論文假設的 1。"
            "論文的前提是 GPU 上搬運權重才是瓶頸；在 CPU 上，多算幾個{unit}就多花時間。",
            "en": "On this device a glance is not cheap: checking k+1 {units} costs v = {verify_cost:.2f} breaths, not the paper's 1. "
            "The paper assumes a GPU, where moving the weights is the bottleneck; on a CPU each extra {unit} costs compute.",
        },
        "reason_overhead": {
            "zh": "每輪還有 {overhead:.0%} 的時間花在兩個模型之外（判定接受、記錄每個{unit}的機率）；小模型寫一個{unit}很快，這些雜事就顯得重。",
            "en": "{overhead:.0%} of each round goes outside both models (deciding acceptance, recording each {unit}'s probabilities); "
            "with small models a {unit} is quick to write, so this bookkeeping weighs heavily.",
        },
        "reason_gap": {
            "zh": "理論預測 {predicted:.2f}×，實測只有 {measured:.2f}×：差距來自公式不計的雜事與這台共用機器的雜訊。",
            "en": "The theory predicts {predicted:.2f}×, the run measured {measured:.2f}×: the gap is the bookkeeping the formula ignores, "
            "and the noise of a shared machine.",
        },
        "position_title": {"zh": "第幾個草稿{unit}被蓋印：逐位置的 α", "en": "α at each drafted {unit}"},
        "position_axis": {"zh": "一行草稿中的第幾個{unit}", "en": "Drafted {unit} in the line (1st, 2nd, …)"},
        "position_alpha": {"zh": "α（蓋印的比例）", "en": "α (share sealed)"},
        "position_bars": {"zh": "這個位置的 α", "en": "α at this position"},
        "position_overall": {"zh": "所有位置合計：{alpha:.2f}", "en": "All positions together: {alpha:.2f}"},
        "position_not_recorded": {
            "zh": "這份錄好的結果沒有逐位置的 α；按「實測一次」，就會畫出第 1、2、3… 個草稿{unit}各自的 α。",
            "en": "This recording has no α by drafted position; press Measure to draw α at the 1st, 2nd, 3rd… drafted {unit}.",
        },
        "position_caption": {
            "zh": "每根長條是這次實測中一個草稿位置的 α：在草稿寫到這個位置、而且前面的{unit}都蓋了印的那些輪裡，這個{unit}也蓋了印的比例；"
            "虛線是所有位置合計（{overall:.2f}，以蓋印數計，和上面以 min(1, p/q) 平均的 α 估的是同一件事）。",
            "en": "Each bar is α at one drafted position in this run: of the rounds whose draft reached that position with every "
            "earlier {unit} sealed, the share that sealed this one too; the dashed line is all positions together ({overall:.2f}, "
            "counted in seals, an estimate of the same α the card above averages as min(1, p/q)).",
        },
        "position_falls": {
            "zh": "這次 α 從第 1 個{unit}的 {first:.2f} 降到第 {m} 個的 {last:.2f}（{n} 輪寫到第 {m} 個）。",
            "en": "Here α falls from {first:.2f} at the 1st drafted {unit} to {last:.2f} at drafted {unit} {m} ({n} of the run's rounds reached it).",
        },
        "position_rises": {
            "zh": "這次 α 從第 1 個{unit}的 {first:.2f} 升到第 {m} 個的 {last:.2f}（{n} 輪寫到第 {m} 個）。",
            "en": "Here α rises from {first:.2f} at the 1st drafted {unit} to {last:.2f} at drafted {unit} {m} ({n} of the run's rounds reached it).",
        },
        "position_holds": {
            "zh": "這次 α 在第 1 個與第 {m} 個{unit}都是 {first:.2f}（{n} 輪寫到第 {m} 個）。",
            "en": "Here α is {first:.2f} at the 1st drafted {unit} and the same at drafted {unit} {m} ({n} of the run's rounds reached it).",
        },
        "position_one": {
            "zh": "這次沒有一輪的草稿走過第 1 個{unit}：α = {first:.2f}。",
            "en": "Here no round's draft got past the 1st {unit}: α = {first:.2f}.",
        },
        "position_lesson": {
            "zh": "讀墨卿筆記打草稿的抄寫員（EAGLE，Li 等人 2024）只有第 1 個{unit}讀的是墨卿真正的筆記；之後的{unit}他讀的是自己猜的筆意，"
            "EAGLE 論文的接受率就在這裡往下掉。EAGLE-3（Li 等人 2025，arXiv 2503.01840）在訓練時就讓抄寫員讀自己的猜測，把後面的接受率拉上來；"
            "本 App 讀墨卿筆記的阿速也是這樣訓練的（連猜三步）。上圖是這次的結果。",
            "en": "A scribe who drafts from the master's notes (EAGLE, Li et al. 2024) reads the master's true notes only for the "
            "1st {unit}; at later ones he reads his own guesses, and that is where EAGLE's acceptance drops. EAGLE-3 (Li et al. "
            "2025, arXiv 2503.01840) trains the scribe on his own guesses to lift those; this app's scribe who reads the master's "
            "notes is trained so (three guesses in a row). The bars above are this run's.",
        },
        "sweep_header": {"zh": "掃一遍：k × 溫度", "en": "A sweep: k × temperature"},
        "sweep_intro": {
            "zh": "每一格都實際量一次（{n} 個範例開頭 × {tokens} 個{unit}），抄寫員、top-p、手抖與種子沿用側欄。"
            "溫度改變的是墨卿收下草稿的方式：溫度 0 時兩人都只寫自己最可能的{unit}，墨卿只收與他的一模一樣的{unit}；"
            "溫度高於 0 時他以 min(1, p/q) 的機率收下。哪一種對這位抄寫員有利，看量到的 α。每格的加速都是對墨卿最快的獨寫。",
            "en": "Every cell is a real measurement ({n} example prompts × {tokens} {units}); scribe, top-p, shaky hand and seed "
            "come from the sidebar. Temperature changes how the master accepts a draft: at 0 both write only their likeliest "
            "{unit} and the master accepts only his own; above 0 he accepts with probability min(1, p/q). Which suits this "
            "scribe better is what the measured α shows. Each cell's speedup is against the master's fastest plain decoding.",
        },
        "sweep_button": {"zh": "開始掃描（{cells} 格）", "en": "Run the sweep ({cells} cells)"},
        "sweep_progress": {
            "zh": "正在量 k = {k}、溫度 {t:g}（第 {i}／{n} 格）…",
            "en": "Measuring k = {k}, temperature {t:g} (cell {i} of {n})…",
        },
        "sweep_done": {"zh": "{n} 格都量好了。", "en": "All {n} cells measured."},
        "sweep_sure": {"zh": "（90% 區間 {low:.2f}–{high:.2f}，高過其他每一格：確實最快。）", "en": "(90% interval {low:.2f}–{high:.2f}, above every other cell's: fastest for sure.)"},
        "sweep_unsure": {
            "zh": "（90% 區間 {low:.2f}–{high:.2f}，和別格重疊：在這台機器的起伏之內，說不上最快。格中小字是每格的區間。）",
            "en": "(90% interval {low:.2f}–{high:.2f}, overlapping other cells': within this machine's noise, not surely the fastest. "
            "The small numbers in each cell are its interval.)",
        },
        "sweep_stale": {
            "zh": "側欄的設定在掃描之後改過了；按上面的按鈕，用現在的設定再掃一次。",
            "en": "The sidebar changed since the sweep; press the button above to sweep with the current settings.",
        },
        "sweep_row": {
            "zh": "- 溫度 {t:g}：α = {alpha:.3f}，每看一眼得 {tokens:.2f} 個{unit}，加速平均 {speedup:.2f}×（各 k 的平均）",
            "en": "- Temperature {t:g}: α = {alpha:.3f}, {tokens:.2f} {units} a glance, speedup {speedup:.2f}× (means over k)",
        },
        "sweep_cold_rejects": {
            "zh": "這次溫度 0 的 α（{a_cold:.3f}）低於溫度 {t_other:g} 的（{a_other:.3f}），每看一眼得 {g_cold:.2f} 個{unit}對 {g_other:.2f} 個{unit}："
            "溫度 0 時收不收非 1 即 0，阿速最可能的{unit}只要和墨卿的不同，整行就從那裡被退回；溫度高於 0 時，兩人機率相近的{unit}"
            "幾乎都會收下。很像墨卿的抄寫員（例如量化的墨卿）只在兩個{unit}差不多可能時才挑得和他不同，溫度 0 時這些地方全被退回。"
            "所以對這位抄寫員，溫度低並不比較容易。",
            "en": "This time α at temperature 0 ({a_cold:.3f}) was below α at {t_other:g} ({a_other:.3f}), with {g_cold:.2f} against "
            "{g_other:.2f} {units} a glance: at 0 acceptance is all or nothing, and wherever the scribe's likeliest "
            "{unit} differs from the master's the line is rejected there; above 0 a {unit} the two find about equally "
            "likely is nearly always accepted. A scribe very like the master (a quantised master, say) picks differently only "
            "where two {units} are almost tied, and at 0 each of those is a rejection. So for this scribe a cooler "
            "temperature is not easier.",
        },
        "sweep_cold_agrees": {
            "zh": "這次溫度 0 的 α（{a_cold:.3f}）不低於溫度 {t_other:g} 的（{a_other:.3f}），每看一眼得 {g_cold:.2f} 個{unit}對 {g_other:.2f} 個{unit}："
            "這位抄寫員最可能的{unit}常和墨卿的相同，比兩人整個機率分布的重疊還多，所以對他而言溫度越低越容易寫出同一個{unit}。",
            "en": "This time α at temperature 0 ({a_cold:.3f}) was not below α at {t_other:g} ({a_other:.3f}), with {g_cold:.2f} against "
            "{g_other:.2f} {units} a glance: this scribe's likeliest {unit} matches the master's more often than their "
            "whole distributions overlap, so for him a cooler temperature makes the same {unit} likelier.",
        },
        "sweep_title": {"zh": "實測加速：k × 溫度", "en": "Measured speedup: k × temperature"},
        "sweep_temperature": {"zh": "溫度", "en": "Temperature"},
        "sweep_speedup": {"zh": "加速", "en": "Speedup"},
        "sweep_best": {
            "zh": "這次掃描最快的一格：k = {k}、溫度 {t:g}，{s:.2f}×。紅色的格子比墨卿獨寫慢，綠色的比較快。",
            "en": "Fastest cell of this sweep: k = {k}, temperature {t:g}, {s:.2f}×. Red cells are slower than the master alone, green ones faster.",
        },
        "tree_chosen": {
            "zh": "側欄選了草稿樹 {shape}：下面的量測與掃描都是每行 k 字的一行草稿（它們比的是 k），這棵樹在頁尾「{section}」和它的一行並排量。",
            "en": "The sidebar chose the tree {shape}: the measurement and the sweep below are chains of k (they compare k); this tree is "
            "measured beside its chain at the end of the page, in \"{section}\".",
        },
    }
)
