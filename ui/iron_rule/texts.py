"""Words of the iron rule page (鐵律), Traditional Chinese first."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "鐵律：一個字的取捨", "en": "The iron rule: one character, kept or replaced"},
        "story": {
            "zh": "第四幕。墨卿審閱阿速的草稿，既不照單全收，也不憑喜好挑字。他問自己：「換作是我，有多大把握會寫這個字？」"
            "阿速寫的若正是墨卿自己也很可能寫的字，就蓋上朱印留下；若墨卿其實更想寫別的字，就用朱筆改成他真正會寫的那個字。"
            "這樣寫成的整張紙，在統計上和墨卿獨自寫的分不出來：分布相同，墨卿費的工夫卻少得多。",
            "en": "Act four. The master reviews A-Su's draft. He neither accepts everything nor picks what he happens "
            "to like. He asks himself: how sure would I have been to write this character? If the scribe wrote what "
            "the master would likely have written, it gets the red seal and stays; if the master would rather have "
            "written something else, his red brush replaces it with what he would truly write. The finished sheet "
            "cannot be told apart, statistically, from one he wrote alone: the same distribution, far fewer slow "
            "passes.",
        },
        "rule_head": {"zh": "鐵律的公式", "en": "The rule as a formula"},
        "rule_text": {
            "zh": "阿速從他的分布 q 抽出一個字 x。墨卿以機率 min(1, p(x)/q(x)) 接受它（蓋印）；"
            "否則退回，改從剩餘分布 r 抽一個字（朱筆）：",
            "en": "The scribe draws a character x from his distribution q. The master keeps it with probability "
            "min(1, p(x)/q(x)) (the seal); otherwise he rejects it and draws a character from the residual r "
            "(the red brush):",
        },
        "tex_seal": {"zh": "蓋印", "en": "sealed"},
        "tex_write": {"zh": "寫出的字", "en": "written"},
        "why": {
            "zh": "為什麼寫出的字正好服從 p？寫出 x 只有兩條路。第一條：阿速寫了 x 並被接受，機率 q(x)·min(1, p(x)/q(x)) = min(p(x), q(x))。"
            "第二條：阿速的字被退回（機率 1 − α，其中 α = Σ min(p, q)），朱筆再寫出 x，機率 (1 − α)·r(x) = max(0, p(x) − q(x))。"
            "兩條路相加：",
            "en": "Why is the written character distributed exactly as p? There are two ways to write x. First: the "
            "scribe writes x and it is kept, with probability q(x)·min(1, p(x)/q(x)) = min(p(x), q(x)). Second: the "
            "scribe's character is rejected (probability 1 − α, where α = Σ min(p, q)) and the red brush writes x, "
            "with probability (1 − α)·r(x) = max(0, p(x) − q(x)). Add the two:",
        },
        "one_position": {
            "zh": "這一頁只看一個位置，也就是 k = 1：側欄的 k 在這裡用不到。",
            "en": "This page looks at one position, that is k = 1: the sidebar's k is not used here.",
        },
        "mode": {"zh": "p 與 q 從哪裡來", "en": "Where p and q come from"},
        "mode_toy": {"zh": "玩具：自己填 p 與 q", "en": "Toy: type your own p and q"},
        "mode_real": {"zh": "真實：模型在某個位置的 p 與 q", "en": "Real: the models' p and q at one position"},
        "toy_help": {
            "zh": "每一列是一個字。p 是墨卿的權重，q 是阿速的權重：填任何非負的數，頁面會除以總和，變成機率。"
            "可以新增或刪除列（{low} 到 {high} 個字）。",
            "en": "Each row is one character. p is the master's weight, q the scribe's: type any non-negative numbers "
            "and the page divides by their total to make probabilities. Rows can be added or deleted ({low} to {high} "
            "characters).",
        },
        "col_token": {"zh": "字", "en": "Character"},
        "col_p": {"zh": "p（墨卿）", "en": "p (master)"},
        "col_q": {"zh": "q（阿速）", "en": "q (scribe)"},
        "toy_count": {
            "zh": "表格要有 {low} 到 {high} 個字，現在有 {n} 個。",
            "en": "The table needs {low} to {high} characters; it has {n}.",
        },
        "toy_no_label": {
            "zh": "第 {row} 列沒有寫字：每一列都要填一個字。",
            "en": "Row {row} has no character: every row needs one.",
        },
        "toy_repeat": {
            "zh": "「{label}」出現了不只一次：每個字只能佔一列。",
            "en": "“{label}” appears more than once: each character may have only one row.",
        },
        "toy_not_number": {
            "zh": "第 {row} 列的 {column} 不是數字（「{value}」）：請填像 0.3 或 5 這樣的數。",
            "en": "Row {row}: {column} is not a number (“{value}”). Type a number such as 0.3 or 5.",
        },
        "toy_empty": {
            "zh": "第 {row} 列的 {column} 是空的或不是數字：請填像 0.3 或 5 這樣的數。",
            "en": "Row {row}: {column} is empty or not a number. Type a number such as 0.3 or 5.",
        },
        "toy_negative": {
            "zh": "第 {row} 列的 {column} 是負數（{value}）：機率不能是負的。",
            "en": "Row {row}: {column} is negative ({value}). A probability cannot be negative.",
        },
        "toy_all_zero": {
            "zh": "{column} 的權重全都是 0：至少要有一個字大於 0，否則無從抽字。",
            "en": "Every weight of {column} is 0: at least one character needs a weight above 0, or there is "
            "nothing to draw.",
        },
        "toy_kept": {
            "zh": "下面的圖仍用上一份正確的表格。",
            "en": "The charts below still use the last valid table.",
        },
        "variants": {"zh": "阿速在這個位置寫幾個異文", "en": "How many variants the scribe pencils here"},
        "variants_one": {"zh": "一個：鐵律", "en": "One: the iron rule"},
        "variants_two": {"zh": "兩個異文", "en": "Two variants"},
        "two_head": {"zh": "兩個異文：旁註裡的第二種寫法", "en": "Two variants: a second reading in the margin"},
        "two_text": {
            "zh": "這裡阿速在旁邊多註一種寫法，就像抄寫員沒把握時會做的：他從 q 獨立抽兩個字 x₁、x₂（放回抽樣，兩個可能是同一個字）。"
            "墨卿先以 min(1, p(x₁)/q(x₁)) 檢驗第一個；若退回，再以 min(1, r₁(x₂)/q(x₂)) 檢驗第二個，r₁ 就是上面的剩餘分布 r；"
            "兩個都退回，墨卿就從再剩下的 r₂ = norm(max(0, r₁ − q)) 用朱筆寫一個字。",
            "en": "Here the scribe pencils a second reading in the margin, as a scribe does where he is unsure: he draws "
            "two characters x₁, x₂ from q independently (with replacement, so both may be the same character). The master tests the first "
            "with min(1, p(x₁)/q(x₁)); if he rejects it, he tests the second with min(1, r₁(x₂)/q(x₂)), where r₁ is "
            "the residual r above; if both are rejected, his red brush writes a character from what is left after "
            "that, r₂ = norm(max(0, r₁ − q)).",
        },
        "two_why": {
            "zh": "為什麼第二個異文要拿 r₁ 檢驗，不能再拿 p？第一次檢驗已經把阿速寫得太多的字（q > p）應得的那份 p 全部發完了，"
            "所以第一個異文被退回之後，墨卿還欠的只剩 r₁；再拿 p 檢驗第二個異文，那份 p 就被發了第二次。"
            "這是 SpecInfer（Miao 等人，arXiv 2305.09781）的多步推測取樣，論文證明這樣遞迴寫出的字仍然服從 p。",
            "en": "Why test the second variant against r₁ and not p again? The first test already handed out p's whole "
            "share for every character the scribe over-drafts (q > p), so once the first variant is rejected the "
            "master owes only r₁; testing the second variant against p hands that share out a second time. This is "
            "the multi-step speculative sampling of SpecInfer (Miao et al., arXiv 2305.09781), which proves that the "
            "recursion still writes p.",
        },
        "two_paths_head": {"zh": "兩個異文時，寫出每個字的三條路", "en": "With two variants, three paths to every character"},
        "two_paths_text": {
            "zh": "最淡的紅：第一個異文蓋印；中間的紅：第一個退回、第二個蓋印；深紅：兩個都退回、朱筆改寫。"
            "三段疊起來正好頂到黑線 p。這個位置 α = {alpha:.3f}，α₂ = Σ min(r₁, q) = {alpha2:.3f}。",
            "en": "Palest red: the first variant is sealed. Middle red: the first is rejected and the second sealed. "
            "Deep red: both are rejected and the red brush writes. Stacked, the three reach exactly the black mark, p. "
            "Here α = {alpha:.3f} and α₂ = Σ min(r₁, q) = {alpha2:.3f}.",
        },
        "legend_first": {"zh": "第一個異文蓋印：min(p, q)", "en": "first variant sealed: min(p, q)"},
        "legend_second": {"zh": "第二個異文蓋印：(1 − α)·min(r₁, q)", "en": "second variant sealed: (1 − α)·min(r₁, q)"},
        "legend_brush": {"zh": "朱筆：(1 − α)(1 − α₂)·r₂", "en": "red brush: (1 − α)(1 − α₂)·r₂"},
        "mc_text_two": {
            "zh": "每一次：阿速從 q 獨立抽兩個異文，交給驗證草稿樹的純函式 tree_verify，當成同一個根節點底下的兩個子節點。"
            "照鐵律，它先以 p 檢驗第一個，退回就以 r₁ 檢驗第二個，兩個都退回就從 r₂ 寫。"
            "把寫出的字記下來，看它們的比例是否趨近 p。亂數種子取自側欄（{seed}）。",
            "en": "Each run: the scribe draws two variants from q independently, and tree_verify, the pure function "
            "that verifies a drafted tree, takes them as the two children of one root. Under the iron rule it tests "
            "the first against p, on rejection the second against r₁, and if both are rejected the master writes "
            "from r₂. Record the written characters and watch their shares approach p. The random seed is the "
            "sidebar's ({seed}).",
        },
        "sealed_rate_two": {
            "zh": "實測蓋印比例（任一個異文；鐵律預期 α + (1 − α)·α₂ = {expected:.3f}）",
            "en": "Observed seal rate, either variant (the iron rule expects α + (1 − α)·α₂ = {expected:.3f})",
        },
        "outcomes_two": {
            "zh": "{n:,} 次之中：第一個異文蓋印 {first:.1%}（鐵律預期 {e_first:.1%}）；第二個異文蓋印 {second:.1%}"
            "（預期 {e_second:.1%}）；兩個都退回、朱筆改寫 {brush:.1%}（預期 {e_brush:.1%}）。",
            "en": "Of the {n:,} runs: the first variant sealed {first:.1%} (the iron rule expects {e_first:.1%}); the "
            "second variant sealed {second:.1%} (expected {e_second:.1%}); both rejected and the red brush writes "
            "{brush:.1%} (expected {e_brush:.1%}).",
        },
        "position": {"zh": "看哪個位置（開頭之後第幾個字）", "en": "Position (tokens after the prompt)"},
        "context": {
            "zh": "墨卿與阿速都讀到這裡：「{context}」，接下來要寫下一個字。側欄這次抄寫在這裡實際寫下的是「{written}」。",
            "en": "Both have read this far: “{context}”, and the next token is to be written. The sidebar's run "
            "actually wrote “{written}” here.",
        },
        "real_caption": {
            "zh": "p 與 q 都套用側欄的溫度 {temperature}、top-p {top_p}，q 再混入手抖 {noise}，和引擎抄寫時完全相同。"
            "圖中只畫 p、q 與 r 最大的幾個字，其餘的合計寫在第一張圖下方；α 則是對全部 {vocab:,} 個字加總。",
            "en": "p and q use the sidebar's temperature {temperature} and top-p {top_p}; q is also mixed with shake "
            "{noise}, exactly as the engine does when it writes. The charts show the largest entries of p, q and r, "
            "the rest are summed below the first chart; α sums over all {vocab:,} tokens.",
        },
        "no_proposal": {
            "zh": "阿速（{scribe}）在這個位置沒有提議（例如提示查詢找不到可以照抄的片段），這一輪只有墨卿自己寫。請換個位置或換一位抄寫員。",
            "en": "The scribe ({scribe}) has no proposal at this position (prompt lookup, for one, finds nothing to "
            "copy), so the master writes alone here. Choose another position or another scribe.",
        },
        "others_mass": {
            "zh": "圖上沒畫的其餘 {n:,} 個字合計：p = {p:.3f}，q = {q:.3f}，其中重疊 min(p, q) = {overlap:.3f}（已算進 α）。",
            "en": "The other {n:,} tokens, not drawn, hold p = {p:.3f} and q = {q:.3f} together, with overlap "
            "min(p, q) = {overlap:.3f} (counted in α).",
        },
        "tv_pooled": {
            "zh": "TV 以圖上的 {n} 個字，加上把其餘所有字併成的一格來計算：眾多罕用字各自的抽樣誤差會把差別淹沒。",
            "en": "TV is taken over the {n} tokens drawn plus one cell holding all the others: the sampling noise of "
            "many rare tokens would drown the difference.",
        },
        "alpha": {"zh": "α = Σ min(p, q)：蓋印的機率", "en": "α = Σ min(p, q): chance of a seal"},
        "alpha_help": {
            "zh": "阿速的字被接受的機率，也就是 p 與 q 重疊的面積（圖中陰影部分的總和）。",
            "en": "The chance the scribe's character is kept: the area where p and q overlap (the shaded parts of "
            "the chart).",
        },
        "reject": {"zh": "1 − α：動用朱筆的機率", "en": "1 − α: chance of the red brush"},
        "overlap_head": {"zh": "墨卿的 p 與阿速的 q", "en": "The master's p and the scribe's q"},
        "residual_head": {"zh": "朱筆從哪裡抽：剩餘分布 r", "en": "Where the red brush draws: the residual r"},
        "residual_text": {
            "zh": "阿速寫得太多的字（q > p）不會再被朱筆寫出；朱筆只補上阿速寫得不夠的部分（p > q）。",
            "en": "Characters the scribe over-writes (q > p) never come from the red brush; it only makes up what the "
            "scribe under-writes (p > q).",
        },
        "paths_head": {"zh": "寫出每個字的兩條路", "en": "Two paths to every character"},
        "paths_text": {
            "zh": "淡紅是「阿速寫、墨卿蓋印」的機率，深紅是「退回後朱筆改寫」的機率；兩段疊起來正好頂到黑線 p。",
            "en": "Pale red: the scribe writes it and the master seals it. Deep red: rejected, then written by the red "
            "brush. Stacked, the two reach exactly the black mark, p.",
        },
        "numbers": {"zh": "每個字的數字", "en": "The numbers for each character"},
        "axis_prob": {"zh": "機率", "en": "probability"},
        "legend_p": {"zh": "p 墨卿", "en": "p master"},
        "legend_q": {"zh": "q 阿速", "en": "q scribe"},
        "legend_overlap": {"zh": "min(p, q) 重疊", "en": "min(p, q) overlap"},
        "legend_excess": {"zh": "max(0, p − q)", "en": "max(0, p − q)"},
        "legend_r": {"zh": "r：正規化後", "en": "r: normalised"},
        "legend_sealed": {"zh": "蓋印：min(p, q)", "en": "sealed: min(p, q)"},
        "legend_corrected": {"zh": "朱筆：max(0, p − q)", "en": "red brush: max(0, p − q)"},
        "col_accept": {"zh": "接受機率 min(1, p/q)", "en": "keep chance min(1, p/q)"},
        "col_sealed": {"zh": "蓋印 min(p, q)", "en": "sealed min(p, q)"},
        "col_corrected": {"zh": "朱筆 max(0, p − q)", "en": "red brush max(0, p − q)"},
        "col_r": {"zh": "r", "en": "r"},
        "mc_head": {"zh": "蒙地卡羅：把鐵律跑很多次", "en": "Monte Carlo: run the rule many times"},
        "mc_text": {
            "zh": "每一次都照引擎的程式走一遍：阿速從 q 抽一個字，verify（k = 1）決定蓋印還是用朱筆改寫。"
            "把寫出的字記下來，看它們的比例是否趨近 p。亂數種子取自側欄（{seed}）。",
            "en": "Each run is the engine's own code: the scribe draws from q, verify (k = 1) seals it or replaces it "
            "with the red brush. Record the written characters and watch their shares approach p. The random seed is "
            "the sidebar's ({seed}).",
        },
        "rule": {"zh": "規則", "en": "Rule"},
        "draws": {"zh": "次數 N", "en": "Draws N"},
        "draws_cap": {
            "zh": "字彙有 {vocab:,} 個字，每一次抽樣都走過整個字彙，所以最多 {cap:,} 次。",
            "en": "The vocabulary has {vocab:,} tokens and every draw runs over all of them, so at most {cap:,} draws.",
        },
        "raw_q_toy": {
            "zh": "玩具模式沒有溫度、top-p 與手抖，處理前後的 q 一模一樣，所以這條壞規則在這裡和鐵律沒有差別。"
            "換到真實模式、把溫度調離 1，就看得出它的錯。",
            "en": "Toy mode has no temperature, top-p or shake, so q before and after processing is the same and this "
            "broken rule behaves like the iron rule here. Switch to real mode and move the temperature away from 1 to "
            "see it fail.",
        },
        "tv_rule": {"zh": "寫出的字與 p 的距離 TV", "en": "TV distance to p"},
        "tv_alone": {"zh": "參照：墨卿獨自寫的 TV", "en": "Reference: TV of the master alone"},
        "tv_help": {
            "zh": "總變異距離 TV = ½ Σ |實測比例 − p|，0 代表完全相同。就算規則完全正確，有限次數也會留下抽樣誤差，"
            "所以拿墨卿獨自從 p 抽同樣次數的 TV 當參照。",
            "en": "Total variation distance TV = ½ Σ |observed share − p|; 0 means identical. Even a correct rule "
            "leaves sampling error after finitely many draws, so the master drawing alone from p, as many times, is "
            "the reference.",
        },
        "sealed_rate": {"zh": "實測蓋印比例（對照 α = {alpha:.3f}）", "en": "Observed seal rate (α = {alpha:.3f})"},
        "convergence_head": {"zh": "抽得越多，離 p 越近嗎？", "en": "More draws, closer to p?"},
        "convergence_text": {
            "zh": "正確的規則會跟著參照線一路往下；壞掉的規則會停在某個高度，因為它收斂到另一個分布。",
            "en": "A correct rule falls along with the reference line; a broken one levels off, because it converges "
            "to a different distribution.",
        },
        "legend_rule": {"zh": "規則「{rule}」寫出的字", "en": "written by rule “{rule}”"},
        "legend_alone": {"zh": "墨卿獨自寫（參照）", "en": "master alone (reference)"},
        "axis_draws": {"zh": "抽樣次數", "en": "draws"},
        "axis_tv": {"zh": "TV 距離", "en": "TV distance"},
        "histogram_head": {"zh": "{n:,} 次之後：寫出的字、p 與 q", "en": "After {n:,} draws: written, p and q"},
        "legend_written": {"zh": "寫出的字（實測比例）", "en": "written (observed share)"},
        "hidden_bug": {
            "zh": "這條壞規則在這裡看不出來：它只改動草稿被拒絕之後的做法，而這個位置 α = {alpha:.3f}，"
            "只有 {bound:.1%} 的草稿會被拒絕，所以它造成的偏差最多只有 1 − α = {bound:.3f}。"
            "抽 {n:,} 次的抽樣誤差就有這麼大（墨卿獨寫的 TV 是 {tv_alone:.4f}，這條規則是 {tv_rule:.4f}），偏差被誤差蓋住了。"
            "換一位較差的抄寫員，被拒絕的草稿變多，偏差就會浮現。",
            "en": "This broken rule cannot be seen here: it changes only what happens after a draft is rejected, and at "
            "this position α = {alpha:.3f}, so only {bound:.1%} of drafts are rejected and its bias is at most "
            "1 − α = {bound:.3f}. The sampling noise of {n:,} draws is as large (the master alone reads TV {tv_alone:.4f}, "
            "this rule {tv_rule:.4f}), so the noise covers the bias. A poorer scribe is rejected more often and shows it.",
        },
        "hidden_bug_two": {
            "zh": "這條壞規則在這裡看不出來：它只改動第一個異文被退回之後的做法，而這個位置 α = {alpha:.3f}，"
            "只有 {bound:.1%} 的第一個異文會被退回，所以它造成的偏差最多只有 1 − α = {bound:.3f}。"
            "抽 {n:,} 次的抽樣誤差就有這麼大（墨卿獨寫的 TV 是 {tv_alone:.4f}，這條規則是 {tv_rule:.4f}），偏差被誤差蓋住了。"
            "換一位較差的抄寫員，被退回的異文變多，偏差就會浮現。",
            "en": "This broken rule cannot be seen here: it changes only what happens after the first variant is "
            "rejected, and at this position α = {alpha:.3f}, so only {bound:.1%} of first variants are rejected and its "
            "bias is at most 1 − α = {bound:.3f}. The sampling noise of {n:,} draws is as large (the master alone reads "
            "TV {tv_alone:.4f}, this rule {tv_rule:.4f}), so the noise covers the bias. A poorer scribe is rejected more "
            "often and shows it.",
        },
        "use_poorest": {"zh": "換成最差的抄寫員（{scribe}）", "en": "Use the poorest scribe ({scribe})"},
    }
)
