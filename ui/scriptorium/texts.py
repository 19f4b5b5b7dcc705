"""Words of the scriptorium page."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "御筆樓：逐輪抄寫", "en": "The scriptorium, round by round"},
        "intro": {
            "zh": "阿速用淡墨一口氣寫一行（草稿 q）；墨卿一眼校完整行（目標 p 的一次前向計算），由左到右在接受的{unit}上蓋朱印，"
            "遇到第一個他不會這樣寫的{unit}，就用朱筆刪去並親筆改正；整行都通過時，他再多寫一個{unit}。",
            "en": "A-Su dashes off a line in light ink (the draft q); Mo Qing checks it at one glance (one forward pass of the "
            "target p), stamps a red seal on each {unit} he accepts from the left, strikes the first one he would not "
            "have written with his red brush and writes his own; when the whole line passes, he adds one more.",
        },
        "replaying": {"zh": "正在重播卷宗第 {id} 號抄寫。", "en": "Replaying archived run no. {id}."},
        "leave_replay": {"zh": "回到側欄的設定", "en": "Back to the sidebar's settings"},
        "start": {"zh": "⏮ 從頭", "en": "⏮ Start"},
        "back": {"zh": "◀ 上一步", "en": "◀ Back"},
        "play": {"zh": "▶ 播放", "en": "▶ Play"},
        "pause": {"zh": "⏸ 暫停", "en": "⏸ Pause"},
        "forward": {"zh": "下一步 ▶", "en": "Step ▶"},
        "end": {"zh": "寫到底 ⏭", "en": "To the end ⏭"},
        "moment": {"zh": "第幾步", "en": "Step"},
        "next_correction": {"zh": "跳到下一處朱筆改正", "en": "Jump to the next correction"},
        "corrections_one": {"zh": "這一卷只有 1 處朱筆改正。", "en": "This run has 1 correction."},
        "corrections_many": {"zh": "這一卷有 {n} 處朱筆改正。", "en": "This run has {n} corrections."},
        "no_correction": {
            "zh": "這一卷沒有朱筆改正：墨卿看過的草稿{unit}全部蓋印。想看朱筆，換一位較差的抄寫員，或到首頁按「看一次朱筆改正」。",
            "en": "This run has no correction: the master sealed every drafted {unit} he checked. To see the red brush, choose "
            "a poorer scribe, or press “Show a correction” on the home page.",
        },
        "show_struck": {"zh": "保留前幾輪被刪的{unit}", "en": "Keep earlier rounds' struck {units}"},
        "tokens": {"zh": "已寫{unit}數", "en": "{Units} written"},
        "tokens_help": {
            "zh": "文章本身的{unit}數：結束符（∎）表示寫完了，不算一個{unit}。每次校閱得{unit}數仍把它算進去，因為墨卿寫它也花了一個位置。",
            "en": "The text's own {units}: the end mark (∎) says the text is done and is not one of them. {Units} per pass "
            "still counts it, as writing it took the master a position like any other.",
        },
        "forwards": {"zh": "墨卿校閱次數", "en": "Master forward passes"},
        "per_forward": {"zh": "每次校閱得{unit}數", "en": "{Units} per pass"},
        "alpha": {"zh": "目前 α（蓋印機率）", "en": "α so far (chance to seal)"},
        "alpha_help": {
            "zh": "墨卿目前校過的 {judged} 個草稿{unit}，各自蓋印機率 min(1, p/q) 的平均：每一個是那個草稿蓋印的機率，α 估計的是 Σ min(p, q)，"
            "阿速的筆跡有多像墨卿。它不是蓋印的比例：這裡蓋印的是 {judged} 個裡的 {sealed} 個。草稿夠多時，兩者才會接近。",
            "en": "The mean of min(1, p/q) over the {judged} drafted {units} the master has judged so far: each is the chance "
            "that draft had of being sealed, and α estimates Σ min(p, q), how closely A-Su's hand resembles the master's. "
            "It is not the share sealed, which is {sealed} of {judged} here; the two come close only over many drafts.",
        },
        "legend": {
            "zh": "灰底：開頭　淡墨虛框：阿速的草稿　右下朱印：墨卿接受　朱線刪去：被退回　灰點框灰線：退回之後作廢、沒校的草稿　朱字：墨卿改正　粗框：整行通過後的加筆　"
            "控制符：▷ 篇首　∎ 篇末　⟨ ⟩ 對話一輪的開始與結束　◇ 其他",
            "en": "grey: the prompt · light dashed: A-Su's draft · red seal: accepted · struck in red: rejected · "
            "dotted, struck in grey: discarded unread after a rejection · "
            "red ink: the master's correction · bold box: bonus after a full line · "
            "control tokens: ▷ start of the text, ∎ end of the text, ⟨ ⟩ a chat turn's start and end, ◇ any other",
        },
        "stage_draft": {
            "zh": "第 {round} 輪：阿速寫了 {n} 個{unit}，墨卿還沒看。",
            "en": "Round {round}: A-Su has drafted {n} {units}; the master has not looked yet.",
        },
        "stage_seal": {
            "zh": "第 {round} 輪：墨卿一眼看完整行，從左起蓋了 {sealed} 個印。",
            "en": "Round {round}: the master read the whole line at one glance and has sealed {sealed} from the left.",
        },
        "stage_corrected": {
            "zh": "第 {round} 輪：第 {at} 個{unit}「{bad}」墨卿不會這樣寫，朱筆改為「{good}」，後面的草稿作廢。這一輪得 {gain}。",
            "en": "Round {round}: the master would not write “{bad}” at position {at}; his red brush writes “{good}” "
            "and the rest of the line is discarded. This round gains {gain}.",
        },
        "stage_corrected_last": {
            "zh": "第 {round} 輪：第 {at} 個{unit}「{bad}」是這行最後一個草稿，墨卿不會這樣寫，朱筆在那裡改為「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: the master would not write “{bad}”, the line's last draft, at position {at}; his red brush "
            "writes “{good}” in its place. This round gains {gain}.",
        },
        "new_is_end": {
            "zh": "「{end}」是結束符：全文到此寫完。",
            "en": "“{end}” is the end mark: the text ends here.",
        },
        "stage_bonus": {
            "zh": "第 {round} 輪：整行 {n} 個{unit}全部蓋印，墨卿從同一次校閱中再加一個{unit}「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: all {n} drafted {units} are sealed, and the same glance gives the master one more, “{good}”. "
            "This round gains {gain}.",
        },
        "stage_ended_rest": {
            "zh": "第 {round} 輪：前 {at} 個{unit}蓋印，第 {at} 個{unit}「{end}」是結束符，全文到此為止：後面的 {rest} 個草稿{unit}不寫，"
            "墨卿也不再自己加寫。這一輪得 {gain}。",
            "en": "Round {round}: the first {at} drafted are sealed, and {unit} {at}, “{end}”, is the end mark, so the text "
            "stops there: the {rest} drafted after it are never written, and the master adds none of his own. This round gains {gain}.",
        },
        "stage_ended": {
            "zh": "第 {round} 輪：{at} 個{unit}全部蓋印，最後一個{unit}「{end}」是結束符，全文到此為止，墨卿不再自己加寫。這一輪得 {gain}。",
            "en": "Round {round}: all {at} drafted are sealed, and the last, “{end}”, is the end mark, so the text stops "
            "there and the master adds none of his own. This round gains {gain}.",
        },
        "stage_plain": {
            "zh": "第 {round} 輪：阿速沒有草稿，墨卿自己寫了「{good}」。",
            "en": "Round {round}: the scribe had no proposal, so the master wrote “{good}” himself.",
        },
        "stage_last": {
            "zh": "第 {round} 輪：只剩最後一個{unit}可寫，阿速不必打草稿，墨卿自己寫了「{good}」。",
            "en": "Round {round}: one {unit} is left to write, so A-Su drafts nothing and the master writes “{good}” himself.",
        },
        "gain_one": {"zh": "{n} 個{unit}", "en": "{n} {unit}"},
        "gain_many": {"zh": "{n} 個{unit}", "en": "{n} {units}"},
        "new_not_yet": {
            "zh": "墨卿還沒看這一行，新的{unit}要等他校閱後才寫得出來。",
            "en": "The master has not looked at the line yet; the new {unit} is written only after his glance.",
        },
        "handout": {"zh": "下載這張稿紙（SVG）", "en": "Download this sheet (SVG)"},
        "handout_help": {
            "zh": "講義用：這一步的稿紙，連同標題、設定、計數、圖例與重開這一次抄寫的網址，印在任何大小都清楚。每張圖表右上角的相機按鈕也能存成 SVG。",
            "en": "For handouts: the sheet at this step with a title, the settings, the counters, a legend and the link that "
            "reopens this run, sharp at any size. Every chart's camera button saves an SVG too.",
        },
        "worked": {"zh": "這一輪，一步一步算", "en": "This round, worked by hand"},
        "worked_intro": {
            "zh": "墨卿對每個草稿{unit}抽一個均勻亂數 u：u 小於 min(1, p/q) 就蓋印，否則朱筆落下，這一行到此為止。表中每個數字都是這次真實抄寫記下的。",
            "en": "For each drafted {unit} the master draws a uniform u: if u is below min(1, p/q) he seals it, otherwise "
            "the red brush falls and the line ends there. Every number below was recorded by this very run.",
        },
        "w_position": {"zh": "位置", "en": "Position"},
        "w_token": {"zh": "{unit}", "en": "{Unit}"},
        "w_verdict": {"zh": "判決", "en": "Verdict"},
        "w_sealed": {"zh": "u < min(1, p/q)：蓋印", "en": "u < min(1, p/q): sealed"},
        "w_struck": {"zh": "u ≥ min(1, p/q)：朱筆", "en": "u ≥ min(1, p/q): struck"},
        "w_from_residual": {
            "zh": "第 {at} 個{unit}被退回，新的{unit}從殘差 r(x) = max(0, p − q) ÷ 總和 抽出（◀ 是抽中的{unit}）：",
            "en": "{Unit} {at} was struck, so the new {unit} is drawn from the residual r(x) = max(0, p − q) / its sum (◀ marks the one drawn):",
        },
        "w_from_p": {
            "zh": "整行都蓋了印（或沒有草稿），新的{unit}直接從 p 抽出（◀ 是抽中的{unit}）：",
            "en": "The whole line was sealed (or nothing was drafted), so the new {unit} is drawn from p itself (◀ marks the one drawn):",
        },
        "w_ended": {
            "zh": "第 {at} 個{unit}「{end}」是結束符：全文寫到它為止，後面的草稿與墨卿的新{unit}都不寫。",
            "en": "{Unit} {at}, “{end}”, is the end mark: the text stops there, and neither the drafts after it nor a new {unit} of the master's are written.",
        },
        "position": {"zh": "看一個位置", "en": "Look at one position"},
        "new_slot": {"zh": "新{unit}", "en": "new"},
        "unjudged": {"zh": "？", "en": "?"},  # the new token's piece, before the master has judged the line
        "p": {"zh": "墨卿 p", "en": "master p"},
        "q": {"zh": "阿速 q", "en": "scribe q"},
        "min": {"zh": "min(p, q)：兩人一致的部分", "en": "min(p, q): where they agree"},
        "r": {"zh": "殘差 max(0, p − q) 正規化", "en": "residual max(0, p − q), normalised"},
        "axis": {"zh": "機率", "en": "probability"},
        "p_x": {"zh": "p(x)", "en": "p(x)"},
        "q_x": {"zh": "q(x)", "en": "q(x)"},
        "ratio": {"zh": "p/q", "en": "p/q"},
        "u": {"zh": "均勻亂數 u", "en": "uniform u"},
        "decision": {"zh": "判決", "en": "Decision"},
        "accepted": {"zh": "u < min(1, p/q)：蓋印", "en": "u < min(1, p/q): sealed"},
        "rejected": {"zh": "u ≥ min(1, p/q)：退回", "en": "u ≥ min(1, p/q): rejected"},
        "not_yet": {
            "zh": "墨卿還沒在這裡落印：按「下一步」看他的判決。",
            "en": "The master has not ruled here yet: press “Step” to see his decision.",
        },
        "unchecked": {
            "zh": "前面已有{unit}被退回，這個{unit}不再檢查，直接作廢。",
            "en": "An earlier {unit} was rejected, so this one is discarded without a check.",
        },
        "from_residual": {
            "zh": "這個{unit}從正規化的殘差 max(0, p − q) 抽出：只在墨卿比阿速更想寫的{units}之中挑。",
            "en": "This {unit} was drawn from the normalised residual max(0, p − q): only among {units} the master wants more than the scribe did.",
        },
        "from_p": {
            "zh": "這個{unit}直接從墨卿的分布 p 抽出（同一次校閱多得的一個{unit}）。",
            "en": "This {unit} was drawn from the master's p directly (the extra {unit} the same glance gives).",
        },
        "caches": {"zh": "KV 快取：校閱前、校閱後、回捲後", "en": "KV caches: before the glance, after it, after rollback"},
        "master": {"zh": "墨卿", "en": "master"},
        "scribe": {"zh": "阿速", "en": "scribe"},
        "before": {"zh": "校閱前", "en": "before"},
        "after": {"zh": "校閱後", "en": "after the glance"},
        "rolled": {"zh": "回捲後", "en": "after rollback"},
        "kept": {"zh": "保留", "en": "kept"},
        "dropped": {"zh": "丟棄（被退回之後）", "en": "dropped (past the rejection)"},
        "cache_axis": {"zh": "快取中的詞元數", "en": "tokens in the cache"},
        "cache_note": {
            "zh": "兩邊的快取都回捲到「開頭＋蓋印的{units}」；新寫的{unit}下一輪才進快取。",
            "en": "Both caches roll back to the context plus the sealed {units}; the new {unit} enters them next round.",
        },
        "cache_note_no_scribe": {
            "zh": "只畫墨卿的快取：這位抄寫員不跑神經網路（查字頻表，或從前文照抄），沒有 KV 快取可以回捲。墨卿的快取回捲到「開頭＋蓋印的{units}」；新寫的{unit}下一輪才進快取。",
            "en": "Only the master's cache is drawn: this scribe runs no network (it looks up counts, or copies from the text), so it keeps no "
            "KV cache to roll back. The master's rolls back to the context plus the sealed {units}; the new {unit} enters it next round.",
        },
        "cache_note_feature": {
            "zh": "這位阿速讀墨卿的筆記（墨卿頂層的隱藏狀態）。他的快取只留下讀了墨卿真筆記的位置：他照自己猜的筆意寫的位置，"
            "即使蓋了印也一律丟棄，下一輪改讀墨卿這次校閱時留下的筆記。墨卿的快取回捲到「開頭＋蓋印的{units}」。",
            "en": "This scribe reads the master's notes (the master's top-layer hidden state). His cache keeps only the positions where he read "
            "the master's own notes: those he wrote from his own guess of the notes are dropped, even when sealed, and next round he reads the "
            "notes the master left during this glance instead. The master's cache rolls back to the context plus the sealed {units}.",
        },
        "full_text": {"zh": "全文", "en": "The whole text"},
        # A tree round (issue 35): the walk down the drafted tree, depth by depth, told and tabled as the run recorded it.
        "alpha_tree": {"zh": "目前 α（首個異文）", "en": "α so far (first variants)"},
        "alpha_tree_help": {
            "zh": "墨卿走到的每一層，第一個異文都對著他自己的 p 試：這裡是它們 min(1, p/q) 的平均。第一個異文正是鏈狀草稿在那裡會寫的{unit}，"
            "所以這和鏈狀草稿量的是同一個 α（估計 Σ min(p, q)：阿速的筆跡有多像墨卿）。之後的異文對著殘差試，"
            "它們的 min(1, r/q) 列在「看一層」的表裡，不算進 α。",
            "en": "At each depth the master reached, the first variant is tried against his own p: this is the mean of their "
            "min(1, p/q). The first variant is the {unit} a chain would have drafted there, so this is the same α a chain "
            "measures (an estimate of Σ min(p, q): how closely A-Su's hand resembles the master's). Later variants are "
            "tried against a residual; their min(1, r/q) is in the table under “Look at one depth” and is not counted here.",
        },
        "variants_one": {"zh": "{n} 個異文", "en": "{n} variant"},
        "variants_many": {"zh": "{n} 個異文", "en": "{n} variants"},
        "quoted": {"zh": "「{piece}」", "en": "“{piece}”"},
        "list_sep": {"zh": "、", "en": ", "},
        "stage_draft_tree_one": {
            "zh": "第 {round} 輪：阿速為下一個{unit}打了 {variants}，墨卿還沒看。",
            "en": "Round {round}: A-Su has pencilled {variants} for the next {unit}; the master has not looked yet.",
        },
        "stage_draft_tree": {
            "zh": "第 {round} 輪：阿速打了 {depths} 層草稿，共 {variants}（由第 1 層往下依次 {per_depth} 個），墨卿還沒看。",
            "en": "Round {round}: A-Su has pencilled {variants} over {depths} depths ({per_depth} from depth 1 down); "
            "the master has not looked yet.",
        },
        "stage_seal_tree_first": {
            "zh": "第 {round} 輪：墨卿一眼看完整棵草稿樹，往下走到第 {depth} 層：第一個異文「{good}」就通過，蓋印。",
            "en": "Round {round}: the master read the whole tree at one glance and has walked down to depth {depth}: "
            "its first variant, “{good}”, passed and is sealed.",
        },
        "stage_seal_tree_only": {
            "zh": "第 {round} 輪：墨卿一眼看完整棵草稿樹，往下走到第 {depth} 層：這一層唯一的異文「{good}」通過，蓋印。",
            "en": "Round {round}: the master read the whole tree at one glance and has walked down to depth {depth}: "
            "its only variant, “{good}”, passed and is sealed.",
        },
        "stage_seal_tree_greedy_only": {
            "zh": "第 {round} 輪：墨卿一眼看完整棵草稿樹，往下走到第 {depth} 層：這一層唯一的異文「{good}」正是他自己的首選，蓋印。",
            "en": "Round {round}: the master read the whole tree at one glance and has walked down to depth {depth}: "
            "its only variant, “{good}”, is his own first choice, and is sealed.",
        },
        "stage_seal_tree_second": {
            "zh": "第 {round} 輪：墨卿一眼看完整棵草稿樹，往下走到第 {depth} 層：第一個異文「{bad}」被退回；第二個「{good}」{against}通過，蓋印。",
            "en": "Round {round}: the master read the whole tree at one glance and has walked down to depth {depth}: "
            "the first variant, “{bad}”, was struck; the second, “{good}”, passed {against} and is sealed.",
        },
        "stage_seal_tree_later": {
            "zh": "第 {round} 輪：墨卿一眼看完整棵草稿樹，往下走到第 {depth} 層：前 {struck} 個異文{pieces}都被退回；"
            "第 {nth} 個「{good}」{against}通過，蓋印。",
            "en": "Round {round}: the master read the whole tree at one glance and has walked down to depth {depth}: "
            "the first {struck} variants, {pieces}, were struck; variant {nth}, “{good}”, passed {against} and is sealed.",
        },
        "against_residual_one": {"zh": "對著它留下的殘差", "en": "against the residual it left"},
        "against_residual_many": {"zh": "對著它們留下的殘差", "en": "against the residual they left"},
        "against_p": {"zh": "仍對著 p 本身（這一次的規則不用殘差）", "en": "against p itself (this run's rule uses no residual)"},
        "untried_one": {"zh": "這一層還有 {n} 個異文不必再試。", "en": "{n} more variant here is never tried."},
        "untried_many": {"zh": "這一層還有 {n} 個異文不必再試。", "en": "The {n} other variants after it here are never tried."},
        "stage_seal_tree_greedy": {
            "zh": "第 {round} 輪：墨卿一眼看完整棵草稿樹，往下走到第 {depth} 層：這一層的 {variants}之中，「{good}」正是他自己的首選，蓋印。",
            "en": "Round {round}: the master read the whole tree at one glance and has walked down to depth {depth}: "
            "of the {variants} there, “{good}”, is his own first choice, and is sealed.",
        },
        "stage_tree_corrected_one": {
            "zh": "第 {round} 輪：第 {depth} 層唯一的異文「{bad}」被退回，墨卿從{source}寫出「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: the only variant at depth {depth}, “{bad}”, was struck, and the master writes “{good}” "
            "from {source}. This round gains {gain}.",
        },
        "stage_tree_corrected_many": {
            "zh": "第 {round} 輪：第 {depth} 層的 {n} 個異文{pieces}全部被退回，墨卿從{source}寫出「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: all {n} variants at depth {depth}, {pieces}, were struck, and the master writes “{good}” "
            "from {source}. This round gains {gain}.",
        },
        "source_last_residual_one": {"zh": "它留下的殘差", "en": "the residual it left"},
        "source_last_residual_many": {"zh": "最後留下的殘差", "en": "the residual the last one left"},
        "source_plain_residual": {
            "zh": "殘差 max(0, p − q)（這一次的規則不理會前面的退回）",
            "en": "the residual max(0, p − q) (this run's rule ignores the rejections before)",
        },
        "stage_tree_corrected_greedy": {
            "zh": "第 {round} 輪：第 {depth} 層的 {variants}{pieces}都不是墨卿的首選，他自己寫出「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: the master's first choice is not among the {variants} at depth {depth}, {pieces}, so he "
            "writes it himself: “{good}”. This round gains {gain}.",
        },
        "stage_tree_corrected_greedy_one": {
            "zh": "第 {round} 輪：第 {depth} 層唯一的異文「{bad}」不是墨卿的首選，他自己寫出「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: the only variant at depth {depth}, “{bad}”, is not the master's first choice, so he writes "
            "it himself: “{good}”. This round gains {gain}.",
        },
        "stage_tree_bonus": {
            "zh": "第 {round} 輪：墨卿一層一層蓋印，直到第 {depth} 層的「{last}」，它底下阿速沒有再寫；墨卿從同一次校閱再加一個{unit}「{good}」。這一輪得 {gain}。",
            "en": "Round {round}: the master sealed a variant at every depth down to depth {depth}, “{last}”, below which "
            "A-Su drafted nothing; the same glance gives him one more, “{good}”. This round gains {gain}.",
        },
        "stage_tree_ended": {
            "zh": "第 {round} 輪：墨卿蓋印到第 {at} 層，「{end}」是結束符，全文到此為止，墨卿不再自己加寫。這一輪得 {gain}。",
            "en": "Round {round}: the master sealed down to depth {at}, where “{end}” is the end mark, so the text stops "
            "there and the master adds none of his own. This round gains {gain}.",
        },
        "stage_tree_ended_rest": {
            "zh": "第 {round} 輪：墨卿蓋印到第 {at} 層，「{end}」是結束符，全文到此為止：它底下的草稿（{variants}）都不寫，"
            "墨卿也不再自己加寫。這一輪得 {gain}。",
            "en": "Round {round}: the master sealed down to depth {at}, where “{end}” is the end mark, so the text stops "
            "there: nothing drafted below it ({variants}) is written, and the master adds none of his own. This round gains {gain}.",
        },
        "position_tree": {"zh": "看一層", "en": "Look at one depth"},
        "depth_slot": {"zh": "第 {depth} 層 · {piece}", "en": "depth {depth} · {piece}"},
        "t_order": {"zh": "次序", "en": "Order"},
        "t_variant": {"zh": "異文", "en": "Variant"},
        "t_verdict": {"zh": "判決", "en": "Verdict"},
        "t_sealed": {"zh": "✔ 蓋印", "en": "✔ sealed"},
        "t_struck": {"zh": "✘ 退回", "en": "✘ struck"},
        "t_first_choice": {"zh": "✔ 是他的首選", "en": "✔ his first choice"},
        "t_not_first_choice": {"zh": "✘ 不是他的首選", "en": "✘ not his first choice"},
        "variants_caption_residual": {
            "zh": "墨卿按阿速寫下的次序試這一層的異文。第一個對著他自己的 p 試（r = p）；每退回一個，殘差就變成 r ← max(0, r − q) 再正規化，"
            "下一個異文對著新的 r 試。u < min(1, r/q) 就蓋印，往下一層走，其餘不再試（表中「—」）；全部退回時，新的{unit}從最後的殘差抽出。",
            "en": "The master tries this depth's variants in the order A-Su pencilled them. The first faces his own p (r = p); "
            "each rejection leaves the residual r ← max(0, r − q), normalised, and the next variant faces that new r. One "
            "with u < min(1, r/q) is sealed and he goes a depth down, trying no more here (“—” in the table); if all are "
            "struck, the new {unit} is drawn from the last residual.",
        },
        "variants_caption_p": {
            "zh": "這一次的規則把每個異文都對著 p 本身試（r 永遠是 p），不理會前面退回的異文留下的殘差：這正是「證明」頁抓得到的錯誤。"
            "u < min(1, r/q) 就蓋印，其餘不再試（表中「—」）；全部退回時，新的{unit}從 max(0, p − q) 抽出。",
            "en": "This run's rule tries every variant against p itself (r is always p), ignoring the residual the rejected "
            "ones left: the mistake the proof page catches. One with u < min(1, r/q) is sealed and no more are tried here "
            "(“—” in the table); if all are struck, the new {unit} is drawn from max(0, p − q).",
        },
        "variants_caption_greedy": {
            "zh": "溫度為 0：墨卿把這一層的每個異文都和他自己的首選（p 的最大者）比對，相同的那一個蓋印，沒有亂數參與。",
            "en": "At temperature 0 the master compares every variant at this depth with his own first choice (the argmax "
            "of p) and seals the one that matches; no draw decides anything.",
        },
        "tree_not_yet": {
            "zh": "墨卿還沒走到這一層：按「下一步」看他怎麼試這些異文。",
            "en": "The master has not walked to this depth yet: press “Step” to see how he tries these variants.",
        },
        "r_faced": {"zh": "試到時的殘差 r(x)", "en": "r(x) when tried"},
        "r_last": {"zh": "最後的殘差 r", "en": "the last residual r"},
        "tree_from_residual": {
            "zh": "這個{unit}從第 {depth} 層最後留下的殘差抽出：那裡試過的異文（{variants}）全被退回，每退回一個，r ← max(0, r − q) 正規化一次。",
            "en": "This {unit} was drawn from the residual left at depth {depth} after every variant tried there ({variants}) "
            "was struck; each struck variant leaves r ← max(0, r − q), normalised.",
        },
        "tree_greedy_new": {
            "zh": "溫度為 0：這一層沒有墨卿的首選，他自己寫下 p 的最大者。",
            "en": "At temperature 0, with no variant at this depth his first choice, the master writes the argmax of p himself.",
        },
        "worked_intro_tree": {
            "zh": "墨卿由上往下走：每一層依阿速寫下的次序試異文，每個異文有自己的均勻亂數 u。第一個對著 p 試；被退回後，"
            "下一個對著殘差 r ← max(0, r − q)（正規化）試。u < min(1, r/q) 就蓋印，往下一層；一層全部退回，這一輪就停在那裡。"
            "表中只列試過的異文，每個數字都是這次真實抄寫記下的。",
            "en": "The master walks down: at each depth he tries the variants in the order A-Su pencilled them, each with "
            "its own uniform u. The first faces p; after a rejection the next faces the residual r ← max(0, r − q), "
            "normalised. If u is below min(1, r/q) the variant is sealed and he goes a depth down; when every variant at "
            "a depth is struck, the walk ends there. Only the variants tried are listed; every number below was recorded "
            "by this very run.",
        },
        "worked_intro_tree_p": {
            "zh": "墨卿由上往下走，每一層依阿速寫下的次序試異文。這一次的規則把每個異文都對著 p 本身試（r = p），不用前面留下的殘差。"
            "u < min(1, r/q) 就蓋印，往下一層；一層全部退回，這一輪就停在那裡。表中每個數字都是這次真實抄寫記下的。",
            "en": "The master walks down, trying each depth's variants in the order A-Su pencilled them. This run's rule tries "
            "every one against p itself (r = p), not the residual the earlier ones left. If u is below min(1, r/q) the "
            "variant is sealed and he goes a depth down; when every variant at a depth is struck, the walk ends there. "
            "Every number below was recorded by this very run.",
        },
        "worked_intro_tree_greedy": {
            "zh": "溫度為 0，沒有亂數參與：每一層墨卿把每個異文都和自己的首選比對，相同的蓋印，往下一層；沒有相同的，這一輪就停在那裡。"
            "表中只列比對過的異文，每個數字都是這次真實抄寫記下的。",
            "en": "At temperature 0 no draw decides anything: at each depth the master compares every variant with his own "
            "first choice and seals the one that matches, then goes a depth down; where none matches, the walk ends. Only "
            "the variants compared are listed; every number below was recorded by this very run.",
        },
        "w_depth": {"zh": "層", "en": "Depth"},
        "w_order": {"zh": "第幾個異文", "en": "Variant no."},
        "w_tree_sealed": {"zh": "u < min(1, r/q)：蓋印", "en": "u < min(1, r/q): sealed"},
        "w_tree_struck": {"zh": "u ≥ min(1, r/q)：退回", "en": "u ≥ min(1, r/q): struck"},
        "w_tree_from_residual": {
            "zh": "第 {depth} 層的異文全部退回，新的{unit}從最後留下的殘差 r 抽出（◀ 是抽中的{unit}）：",
            "en": "Every variant at depth {depth} was struck, so the new {unit} is drawn from the last residual r (◀ marks the one drawn):",
        },
        "w_tree_from_plain_residual": {
            "zh": "第 {depth} 層的異文全部退回，這一次的規則從 max(0, p − q) ÷ 總和 抽出新的{unit}（◀ 是抽中的{unit}）：",
            "en": "Every variant at depth {depth} was struck, and this run's rule draws the new {unit} from max(0, p − q) / its sum (◀ marks the one drawn):",
        },
        "w_tree_greedy_new": {
            "zh": "第 {depth} 層沒有墨卿的首選，他自己寫下 p 的最大者（◀）：",
            "en": "No variant at depth {depth} is the master's first choice, so he writes the argmax of p himself (◀):",
        },
        "w_tree_from_p": {
            "zh": "一路蓋印到第 {depth} 層的「{last}」，它底下沒有異文，新的{unit}直接從 p 抽出（◀ 是抽中的{unit}）：",
            "en": "Every depth down to “{last}” at depth {depth} was sealed and nothing was drafted below it, so the new {unit} "
            "is drawn from p itself (◀ marks the one drawn):",
        },
        # The margin's marks, under the legend of a tree run's sheet (#35)
        "legend_margin": {
            "zh": "一行上方的小字：阿速在同一層的其他異文　朱線刪去：試過、退回　點線淡字：墨卿沒走到　淡墨虛框：這一層還沒判",
            "en": "small characters above the line: A-Su's other variants at that depth · struck in red: tried and struck · "
            "dotted, faint: never reached · light, dashed: not judged yet",
        },
        "variants_caption_distinct": {
            "zh": "這一輪的異文是不放回地抽的：第 i 個從 q 去掉前面已抽出的字、再正規化的 q_i 抽出，所以它對著 min(1, r/q_i) 試，"
            "退回後殘差是 r ← max(0, r − q_i) 再正規化（遞迴推測解碼，arXiv 2402.14160）。",
            "en": "This round's variants were drawn without replacement: the i-th from q_i, q without the tokens drawn before it, "
            "normalised, so it faces min(1, r/q_i), and a rejection leaves r ← max(0, r − q_i), normalised (recursive "
            "speculative decoding, arXiv 2402.14160).",
        },
    }
)
