"""Words of the proof page (分毫不差)."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "分毫不差：看不出是誰寫的", "en": "Indistinguishable: no one can tell who wrote it"},
        "intro": {
            "zh": "鐵律保證：墨卿與阿速合寫的稿，和墨卿獨自寫的稿，統計上無法分辨。這一頁讓兩者各寫幾千次開頭的兩個字，"
            "和墨卿的精確分布 p 並排比較，直方圖隨樣本一起長出來；再把鐵律改壞，看差異如何浮現。",
            "en": "The iron rule promises that a sheet written by the master and the scribe together cannot be told apart, "
            "statistically, from one the master wrote alone. Here both write the first two tokens thousands of times, "
            "side by side with the master's exact distribution p; the histograms grow as the samples arrive. Then break the rule and watch the difference appear.",
        },
        "samples": {"zh": "樣本數", "en": "Samples"},
        "rule": {"zh": "接受規則（可以故意改壞）", "en": "Acceptance rule (break it on purpose)"},
        "run": {"zh": "開始取樣", "en": "Start sampling"},
        "stop": {"zh": "停止", "en": "Stop"},
        "progress": {"zh": "已取 {done:,} / {total:,} 個樣本（{seconds:.1f} 秒）", "en": "{done:,} of {total:,} samples ({seconds:.1f} s)"},
        "stopped": {"zh": "已停止：以下結果只用了 {done:,} 個樣本。", "en": "Stopped: the results below use {done:,} samples only."},
        "nothing_yet": {"zh": "按「開始取樣」。", "en": "Press “Start sampling”."},
        "exact": {"zh": "精確分布 p", "en": "exact p"},
        "speculative": {"zh": "墨卿＋阿速（推測解碼）", "en": "master + scribe (speculative)"},
        "plain": {"zh": "墨卿獨寫", "en": "master alone"},
        "first": {"zh": "第一個字", "en": "First token"},
        "joint": {"zh": "前兩個字（聯合分布，最可能的格子）", "en": "First two tokens (joint, most likely cells)"},
        "frequency": {"zh": "頻率", "en": "frequency"},
        "tv_axis": {"zh": "總變異距離 TV", "en": "total variation distance"},
        "tv_history": {"zh": "樣本越多，誤差越小：TV 隨樣本數的變化", "en": "More samples, less noise: TV as samples grow"},
        "tv_cells": {
            "zh": "TV 量在整次取樣前就定好的格子上（{cells:,} 格，加上其餘合成一格）：正確的取樣會往 0 落下，壞掉的規則會停在 0 之上。",
            "en": "TV over cells fixed before sampling began ({cells:,} cells and one for all the rest): exact sampling falls "
            "toward 0, a broken rule levels off above it.",
        },
        "tv_too_few": {"zh": "還只有一批樣本：再多幾批才畫得出曲線。", "en": "One batch so far: the curve needs a few more."},
        "null": {"zh": "完全正確的取樣在此樣本數下的平均 TV", "en": "mean TV of an exact sampler at this size"},
        "n": {"zh": "樣本數", "en": "samples"},
        "table_who": {"zh": "誰寫的", "en": "Who wrote"},
        "table_p_first": {"zh": "第一字 p 值", "en": "p-value, first token"},
        "table_p_joint": {"zh": "前兩字 p 值", "en": "p-value, first two"},
        "table_tv": {"zh": "樣本的 TV（前兩字）", "en": "TV of the samples (first two)"},
        "table_null": {"zh": "正確取樣在此樣本數的 TV", "en": "TV of exact sampling at this size"},
        "table_tv_corrected": {"zh": "扣除抽樣偏差的 TV", "en": "TV less sampling bias"},
        "table_ci": {"zh": "扣除偏差 TV 的 95% 區間", "en": "95% interval of the bias-less TV"},
        "verdict_same": {
            "zh": "{who}：與精確分布分不出來（p = {p:.3f}）。",
            "en": "{who}: cannot be told apart from the exact distribution (p = {p:.3f}).",
        },
        "verdict_drift": {
            "zh": "{who}：偏離了精確分布（p = {p:.1e}），這不是抽樣的運氣。",
            "en": "{who}: drifts from the exact distribution (p = {p:.1e}); this is not sampling luck.",
        },
        "test_note": {
            "zh": "檢定：Cressie–Read 冪散度（λ = 2/3，介於卡方與 G 檢定之間）；期望次數不足 5 的格子合併。p 值很小代表樣本不像來自 p。"
            "樣本的 TV 因抽樣雜訊而偏高（正確取樣也不會是 0，所以要和旁邊那一欄比）；扣除 bootstrap 估計的偏差，"
            "才是真實 TV 的估計。95% 區間是這個估計的區間，不一定包含樣本的 TV。",
            "en": "Test: Cressie–Read power divergence (λ = 2/3, between chi-square and the G-test); cells expected fewer than 5 times are pooled. "
            "A tiny p-value says the samples do not look like draws from p. The samples' TV is biased upwards by sampling noise "
            "(exact sampling does not give 0 either, so compare it with the column beside it); less the bias the bootstrap "
            "estimates, it estimates the true TV, and the bootstrap's 95% interval is that estimate's, which need not hold the samples' TV.",
        },
        "joint_untestable": {
            "zh": "樣本太少，前兩字的每一格期望次數都不到 5，聯合分布無法檢定；至少要約 {n:,.0f} 個樣本。上表只檢定第一個字。",
            "en": "Too few samples: every cell of the first two tokens is expected fewer than 5 times, so the joint cannot be tested; "
            "it needs about {n:,.0f} samples. The verdicts above test the first token only.",
        },
        "hint_chain": {
            "zh": "提示：每條壞規則要在它自己的抄寫員與溫度下才現形，不一定是最差的抄寫員。選了壞規則，下面的按鈕會打開 {n:,} 個樣本就抓得到它的設定。",
            "en": "Hint: each broken rule shows its bias under a scribe and temperature of its own, not always the poorest. "
            "With a broken rule chosen, the button below opens the settings where {n:,} samples catch it.",
        },
        "scenario_button": {
            "zh": "打開抓得到它的設定：抄寫員「{scribe}」、k = {k}、溫度 {temperature:g}、第一個範例開頭",
            "en": "Open the settings that catch it: scribe “{scribe}”, k = {k}, temperature {temperature:g}, the first example prompt",
        },
        "scenario_here": {
            "zh": "這正是抓得到這條規則的設定：在這個開頭上，{n:,} 個樣本、種子 0 到 4 都判出偏差（p < 0.001）。",
            "en": "These are the settings that catch this rule: on this prompt, {n:,} samples found its bias (p < 0.001) at "
            "each of seeds 0 to 4.",
        },
        "why:accept-all": {
            "zh": "它寫出的就是 q 本身，所以離墨卿最遠的抄寫員最容易現形。",
            "en": "It writes q itself, so the scribe farthest from the master shows it soonest.",
        },
        "why:exact-match": {
            "zh": "它的偏差是 p(x)(q(x) − Σ q·p)：q 離 p 越遠反而越小。要 q 貼近 p、最可能的字又不是十拿九穩，所以用最好的抄寫員、溫度 0.5。",
            "en": "Its bias is p(x)(q(x) − Σ q·p), which shrinks as q moves away from p: it needs q close to p and a top "
            "token likely but not certain, so the best scribe at temperature 0.5.",
        },
        "why:resample-p": {
            "zh": "它寫出的字來自 min(p, q) + (1 − α)·p，偏差在抄寫員總是對（α = 1）或從不對（α = 0）時都是零，所以選中間的抄寫員。",
            "en": "It writes from min(p, q) + (1 − α)·p: the bias is zero for a scribe always right (α = 1) and for one "
            "never right (α = 0), so a scribe in between shows it.",
        },
        "why:greedy-soft-q": {
            "zh": "抄寫員永遠寫它最可能的字，而 q 貼近 p 時 min(1, p/q) 幾乎是 1，那個字就幾乎每次都寫出來：最好的抄寫員，溫度只要高於 0。",
            "en": "The scribe always drafts its top token, and with q close to p min(1, p/q) is almost 1, so that token comes "
            "out almost every time: the best scribe, at any temperature above 0.",
        },
        "why:raw-q": {
            "zh": "比值用的是溫度之前的 q，草稿卻是在溫度 0.8 下抽的；q 貼近 p 時，多出來的機率都堆到最可能的字上。所以用最好的抄寫員、溫度 0.8（溫度 1 時沒有偏差）。",
            "en": "The ratio reads q from before temperature while the draft was drawn at temperature 0.8; with q close to p "
            "the extra mass piles onto the top token. So the best scribe at 0.8 (at temperature 1 there is no bias).",
        },
        "not_caught": {
            "zh": "這一次沒抓到「{rule}」：在這組設定下，它的偏差小到 {n:,} 個樣本看不出來。通過這次檢定，不代表這條規則是對的。",
            "en": "This run did not catch “{rule}”: at these settings its bias is too small for {n:,} samples to show. "
            "Passing this test does not make the rule right.",
        },
        "not_caught_scenario": {
            "zh": "上面的按鈕會打開抓得到它的設定。",
            "en": "The button above opens the settings that catch it.",
        },
        "tree_mode": {"zh": "草稿樹：頁邊寫異文", "en": "Draft tree: variants in the margin"},
        "branching": {"zh": "每層異文數（第一層-第二層）", "en": "Variants per depth (first-second)"},
        "tree_note": {
            "zh": "樹模式（形狀 {shape}）：每一輪，阿速在頁邊寫下異文：下一個字寫 {first} 個，每個之下再為後一個字寫 {second} 個；"
            "只差一個字的輪次只寫第一層。每個異文都從 q 獨立、放回地抽出（i.i.d.），所以可能重複。墨卿一次批次前向讀過樹上每條路徑，"
            "再從根往下走：異文 x 以 min(1, r(x)/q(x)) 的機率被接受，r 起初是 p，每退回一個異文就變成 norm(max(0, r − q))；"
            "同一處的異文全被退回時，墨卿從最後的 r 寫一個字。這是 SpecInfer 的多步推測取樣（Miao 等，arXiv 2305.09781），"
            "對這樣抽出的異文已證明精確。樹的深度取代側欄的 k。",
            "en": "Tree mode (shape {shape}): each round the scribe pencils variants in the margin: {first} for the next token and, "
            "under each of them, {second} for the one after; a round that needs only one more token drafts the first depth alone. "
            "Every variant is drawn from q independently, with replacement (i.i.d.), so twins can occur. The master reads every path "
            "of the tree in one batched forward, then walks down from the root: a variant x is accepted with probability "
            "min(1, r(x)/q(x)), where r starts as p and becomes norm(max(0, r − q)) after each rejected variant; where every variant "
            "at a node is rejected, the master writes from the last r. This is SpecInfer's multi-step speculative sampling "
            "(Miao et al., arXiv 2305.09781), proved exact for variants drawn this way. The tree's depth takes the place of the sidebar's k.",
        },
        "hint_tree": {
            "zh": "提示：同一處有兩個異文時，壞規則寫出的字來自 min(p, q) + (1 − α)·p，而不是 p。誤差 min(p, q) − α·p "
            "在抄寫員總是對（α = 1）或從不對（α = 0）時都是零，所以要選介於兩者之間的抄寫員：常錯，但也有時對。",
            "en": "Hint: with two variants at a node, the broken rule writes the token from min(p, q) + (1 − α)·p instead of p. "
            "The error, min(p, q) − α·p, is zero when the scribe is always right (α = 1) or never (α = 0), so choose a scribe "
            "in between: often wrong, yet sometimes right.",
        },
        "bug": {"zh": "這個錯誤在真實程式中出現過：", "en": "This mistake has shipped in real code:"},
        "class_size": {
            "zh": "{n:,} 個樣本是課堂模式：幾秒內判定，在每條壞規則自己的設定下（規則下面的按鈕）都抓得到它；要看更細的 TV 曲線，選 10,000 以上。",
            "en": "{n:,} samples is the class mode: it decides within seconds and catches each broken rule in the settings "
            "the button under the rule opens; for a finer TV curve choose 10,000 or more.",
        },
        "class_size_plain": {
            "zh": "{n:,} 個樣本是課堂模式：幾秒內判定；要看更細的 TV 曲線，選 10,000 以上。",
            "en": "{n:,} samples is the class mode: it decides within seconds; for a finer TV curve choose 10,000 or more.",
        },
        "in_line": {
            "zh": "排隊中：前面還有 {ahead} 場即時證明在跑（一次只跑一場，先到先跑），約 {seconds:.0f} 秒後輪到你。",
            "en": "In line: live proofs ahead of yours: {ahead} (one runs at a time, first come first served); "
            "your turn comes in about {seconds:.0f} s.",
        },
        "in_line_unknown": {
            "zh": "排隊中：前面還有 {ahead} 場即時證明在跑（一次只跑一場，先到先跑）；第一批樣本出來後就能估計要等多久。",
            "en": "In line: live proofs ahead of yours: {ahead} (one runs at a time, first come first served); "
            "the wait can be estimated once the first batch is drawn.",
        },
        "line_yours": {
            "zh": "你已有 {yours} 場即時證明在這台伺服器上排隊或進行；每位訪客最多兩場，好讓全班都輪得到。等其中一場結束再按。",
            "en": "You already have {yours} live proofs waiting or running on this server; each visitor may have two, so the "
            "whole class gets a turn. Press again once one of them has finished.",
        },
        "line_full": {
            "zh": "這台伺服器上已有 {ahead} 場即時證明在排隊，現在加入要等太久。請稍後再按；下方若有錄好的結果，照樣可以看。",
            "en": "Live proofs already in line on this server: {ahead}; joining now would wait too long. Press again in a while; "
            "any recorded result below can still be read.",
        },
    }
)
