"""Words of the speed lab's chain-against-tree section (its own file, like the glance section's)."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "tv_header": {"zh": "一行還是頁邊異文：鏈與樹", "en": "A line or variants in the margin: chain against tree"},
        "tv_intro": {
            "zh": "阿速沒把握的地方，可以在頁邊多寫兩三個異文（一棵草稿樹），墨卿一眼把整棵樹都校完。"
            "下面用同樣的開頭、種子、溫度與長度，讓阿速各寫一次：一次照側欄的 k 寫一行（鏈），一次寫一棵樹，"
            "比較每一眼得到幾個{unit}、一眼要花多少、實際快了沒有。",
            "en": "Where A-Su is unsure he can pencil two or three variants in the margin (a drafted tree), and the master "
            "checks the whole tree in one glance. Below, the same prompts, seed, temperature and length are run twice: once "
            "as a line of the sidebar's k (a chain), once as a tree; compared are the {units} each glance yields, what a "
            "glance costs, and whether it was faster.",
        },
        "tv_shape": {"zh": "樹的形狀（每一層每個節點分幾枝）", "en": "The tree's shape (children per node at each depth)"},
        "tv_shape_help": {
            "zh": "「2-1-1」：第一層兩個異文，其下各接一個{unit}、再一個{unit}。「dynamic-W-B」：每層挑阿速最有把握的 W 個節點各分 W 枝，直到共 B 個節點。",
            "en": "“2-1-1”: two variants at the first depth, each followed by one {unit} and one more. “dynamic-W-B”: at "
            "each depth the scribe's W most confident nodes get W children each, until there are B nodes in all.",
        },
        "tv_sidebar_tree": {
            "zh": "樹的形狀取自側欄：{tree}。側欄不設樹時，這裡可以自選。",
            "en": "The tree's shape is the sidebar's: {tree}. With no tree set in the sidebar, one can be chosen here.",
        },
        "tv_button": {"zh": "比一比鏈與樹", "en": "Run chain against tree"},
        "tv_button_help": {
            "zh": "兩次量測，各與墨卿獨寫交錯進行，比上面的一次量測久一倍。結果留在伺服器上，再按一次立即顯示。",
            "en": "Two measurements, each interleaved with the master alone: twice as long as the measurement above. The "
            "results stay on the server: pressing again shows them at once.",
        },
        "tv_press": {"zh": "按「比一比鏈與樹」，在這台機器上實測。", "en": "Press “Run chain against tree” to measure both on this machine."},
        "tv_stale": {"zh": "設定改了：按「比一比鏈與樹」量新的設定。", "en": "The settings changed: press “Run chain against tree” to measure them."},
        "tv_measuring": {
            "zh": "正在實測：先寫一行（鏈），再寫一棵樹（{tree}），各 {n} 個開頭、每個 {tokens} 個{unit}，再量墨卿一眼的時間…",
            "en": "Measuring: a line (the chain), then a tree ({tree}), {n} prompts of {tokens} {units} each, then the "
            "master's glance timed…",
        },
        "tv_cannot_master": {
            "zh": "這一節比較一行與一棵草稿樹，但這組模型寫不了樹：{why}。",
            "en": "This section compares a line with a drafted tree, and these models cannot draft a tree: {why}.",
        },
        "tv_cannot_scribe": {
            "zh": "這一節比較一行與一棵草稿樹，但這位抄寫員寫不了樹：{why}（n-gram 計數與照抄提示都沒有模型）。在側欄換一位模型抄寫員，就能比較。",
            "en": "This section compares a line with a drafted tree, and this scribe cannot draft a tree: {why} (n-gram "
            "counts and prompt lookup have no model at all). Choose a model scribe in the sidebar to compare.",
        },
        "tv_measured_on": {
            "zh": "量自這組模型的 {n} 個範例開頭，每個 {tokens} 個{unit}、跑 {runs}；裝置 {device}，抄寫員「{scribe}」，溫度 {temperature:g}，"
            "手抖 {noise:g}，種子 {seed}。兩邊的加速都是對自己那次量測裡交錯跑的墨卿獨寫（最快的寫法）而言；括號是 90% 區間。",
            "en": "Measured on the pair's {n} example prompts, {tokens} {units} each, {runs}; device {device}, scribe "
            "“{scribe}”, temperature {temperature:g}, shaky hand {noise:g}, seed {seed}. Each speedup is against the master "
            "alone (at his fastest) interleaved in its own measurement; in brackets its 90% interval.",
        },
        "tv_col_chain": {"zh": "鏈：一行 k = {k}", "en": "chain: a line of k = {k}"},
        "tv_col_tree": {"zh": "樹：{tree}（至多 {nodes} 個節點）", "en": "tree: {tree} (up to {nodes} nodes)"},
        "tv_row_tpf": {"zh": "墨卿每看一眼得到的{unit}數", "en": "{Units} per master glance"},
        "tv_row_speedup": {"zh": "對墨卿獨寫的加速", "en": "Speedup against the master alone"},
        "tv_row_tps": {"zh": "每秒{unit}數", "en": "{Units} per second"},
        "tv_row_forwards": {"zh": "阿速每輪的前向次數（樹：層數）", "en": "Scribe's forwards a round (a tree: its depths)"},
        "tv_row_nodes": {"zh": "阿速每輪寫的{unit}數（樹：節點數）", "en": "{Units} drafted a round (a tree: its nodes)"},
        "tv_row_verify": {"zh": "一眼的成本（以只看一個位置的前向為 1）", "en": "One glance's cost (a one-position forward = 1)"},
        "tv_row_draft_ms": {"zh": "阿速的時間：每寫成一{unit}幾毫秒", "en": "The scribe's ms per {unit} written"},
        "tv_row_verify_ms": {"zh": "墨卿的時間：每寫成一{unit}幾毫秒", "en": "The master's ms per {unit} written"},
        "tv_times": {"zh": "{x:.2f}×（{low:.2f}–{high:.2f}）", "en": "{x:.2f}× ({low:.2f}–{high:.2f})"},
        "tv_more": {
            "zh": "樹每一眼寫成 {tree_tpf:.2f} 個{unit}，是鏈（{chain_tpf:.2f} 個）的 {glance:.2f} 倍：頁邊的異文讓墨卿多蓋了印。",
            "en": "The tree wrote {tree_tpf:.2f} {units} a glance, {glance:.2f}× the chain's {chain_tpf:.2f}: the "
            "variants in the margin earned the master more seals.",
        },
        "tv_fewer": {
            "zh": "樹每一眼只寫成 {tree_tpf:.2f} 個{unit}，是鏈（{chain_tpf:.2f} 個）的 {glance:.2f} 倍：這棵樹沒有比一行多得字。",
            "en": "The tree wrote {tree_tpf:.2f} {units} a glance, {glance:.2f}× the chain's {chain_tpf:.2f}: this tree "
            "earned no more than the line.",
        },
        "tv_as_many": {
            "zh": "樹與鏈每一眼寫成的{unit}數一樣多（{tree_tpf:.2f} 與 {chain_tpf:.2f}）。",
            "en": "The tree and the chain wrote as many {units} a glance ({tree_tpf:.2f} and {chain_tpf:.2f}).",
        },
        "tv_faster": {
            "zh": "實際時間上，樹的加速是鏈的 {speed:.2f} 倍（{tree_speedup:.2f}× 對 {chain_speedup:.2f}×），兩者的 90% 區間不重疊：這次樹比較快。",
            "en": "On the clock the tree was {speed:.2f}× as fast as the chain ({tree_speedup:.2f}× against "
            "{chain_speedup:.2f}×), their 90% intervals apart: this time the tree was faster.",
        },
        "tv_slower": {
            "zh": "實際時間上，樹的加速只有鏈的 {speed:.2f} 倍（{tree_speedup:.2f}× 對 {chain_speedup:.2f}×），兩者的 90% 區間不重疊：這次樹比較慢。",
            "en": "On the clock the tree was only {speed:.2f}× as fast as the chain ({tree_speedup:.2f}× against "
            "{chain_speedup:.2f}×), their 90% intervals apart: this time the tree was slower.",
        },
        "tv_tied": {
            "zh": "實際時間上，樹的加速是鏈的 {speed:.2f} 倍（{tree_speedup:.2f}× 對 {chain_speedup:.2f}×），但兩者的 90% 區間重疊："
            "這麼短的量測分不出誰快。",
            "en": "On the clock the tree was {speed:.2f}× as fast as the chain ({tree_speedup:.2f}× against "
            "{chain_speedup:.2f}×), but their 90% intervals overlap: a measurement this short cannot tell which is faster.",
        },
        "tv_reason_glance": {
            "zh": "墨卿的一眼變貴了：樹每輪讓他看 {tree_positions:.1f} 個位置，一眼的成本 {tree_verify:.2f}；"
            "鏈每輪看 {chain_positions:.1f} 個，成本 {chain_verify:.2f}。",
            "en": "The master's glance cost more: the tree had him check {tree_positions:.1f} positions a round at a cost of "
            "{tree_verify:.2f}, the chain {chain_positions:.1f} at {chain_verify:.2f}.",
        },
        "tv_reason_scribe": {
            "zh": "阿速也多花了時間：寫樹每成一{unit}花 {tree_draft_ms:.2f} 毫秒（每輪 {tree_forwards:.1f} 次前向寫 {tree_nodes:.1f} 個節點），"
            "寫一行只花 {chain_draft_ms:.2f} 毫秒（每輪 {chain_forwards:.1f} 次前向寫 {chain_nodes:.1f} 個{unit}）。",
            "en": "The scribe paid more too: {tree_draft_ms:.2f} ms per {unit} written for the tree ({tree_nodes:.1f} nodes a "
            "round in {tree_forwards:.1f} forwards) against {chain_draft_ms:.2f} ms for the line ({chain_nodes:.1f} {units} "
            "a round in {chain_forwards:.1f} forwards).",
        },
        "tv_reason_other": {
            "zh": "兩個模型的前向時間都不是原因：差在迴圈其餘的記帳，樹每成一{unit}花 {tree_other_ms:.2f} 毫秒，鏈花 {chain_other_ms:.2f} 毫秒。",
            "en": "Neither model's forwards explain it: the difference is in the loop's other bookkeeping, {tree_other_ms:.2f} "
            "ms per {unit} for the tree against {chain_other_ms:.2f} ms for the chain.",
        },
        "tv_glance_tree": {
            "zh": "在這台機器上量的：一眼看 {tree_n} 個位置（樹最大的一輪）要 {tree_ms:.1f} 毫秒，是只看 1 個（{one_ms:.1f} 毫秒）的 {tree_ratio:.2f} 倍。",
            "en": "Measured on this machine: a glance over {tree_n} positions (the tree's largest round) took {tree_ms:.1f} ms, "
            "{tree_ratio:.2f}× a glance over one ({one_ms:.1f} ms).",
        },
        "tv_glance_chain": {
            "zh": "鏈的一輪看 {chain_n} 個位置，是 {chain_ratio:.2f} 倍。",
            "en": "The chain's round of {chain_n} positions: {chain_ratio:.2f}×.",
        },
        "tv_glance_cheap": {
            "zh": "一眼仍然便宜：時間花在把權重讀一遍，不在每個位置的算術。",
            "en": "The glance stays cheap: its time goes to reading the weights once, not to each position's arithmetic.",
        },
        "tv_glance_dearer": {
            "zh": "位置一多，每個位置的算術已經看得出來：樹的每個節點都要付錢。",
            "en": "With more positions each one's arithmetic shows in the time: every node of the tree is paid for.",
        },
        "tv_glance_unmeasured": {
            "zh": "一眼看 {n} 個位置放不進這個模型讀得下的長度，所以沒有量。",
            "en": "A glance over {n} positions does not fit in what this model reads, so it was not timed.",
        },
        "tv_fig_title": {"zh": "一眼的成本與校閱的位置數", "en": "A glance's cost against the positions it checks"},
        "tv_fig_glance": {"zh": "實測：看 n 個位置的一眼 ÷ 看 1 個", "en": "measured: a glance over n positions ÷ one over 1"},
        "tv_fig_chain": {"zh": "鏈的一輪（這次量測）", "en": "the chain's round (this measurement)"},
        "tv_fig_tree": {"zh": "樹的一輪（這次量測）", "en": "the tree's round (this measurement)"},
        "tv_fig_positions": {"zh": "一眼校閱的位置數（草稿節點 + 1）", "en": "positions checked in one glance (drafted nodes + 1)"},
        "tv_fig_cost": {"zh": "成本（只看一個位置的前向 = 1）", "en": "cost (a one-position forward = 1)"},
        "tv_fig_caption": {
            "zh": "實線：墨卿的前向看 1、2、4、… 個位置的最快時間，除以只看 1 個的最快時間（量測於 {when} UTC，每個大小 {repeats} 次）。"
            "兩點：兩次量測裡一輪的平均位置數，與平均一眼時間除以墨卿獨寫時一次前向的時間。",
            "en": "Line: the master's forward over 1, 2, 4, … positions, its fastest time over that of one position (timed "
            "at {when} UTC, {repeats} forwards a size). Points: each measurement's mean positions a round, and its mean glance "
            "over the master's forward when writing alone.",
        },
    }
)
