"""Words of the scriptorium's tree diagram: a round's drafted tree, as the master's walk down it judged it."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "t_title": {"zh": "第 {round} 輪：阿速的草稿樹", "en": "Round {round}: the scribe's tree"},
        "t_root": {"zh": "前文", "en": "context"},
        "t_drafted": {"zh": "阿速的草稿樹：{nodes} 個異文，{depth} 層深。", "en": "The scribe's tree: {nodes} drafted, {depth} deep."},
        "t_not_yet": {"zh": "墨卿還沒看。", "en": "The master has not looked yet."},
        "t_down_to": {"zh": "墨卿判到第 {depth} 層。", "en": "The master has judged down to depth {depth}."},
        "t_counts": {
            "zh": "蓋印 {sealed}　退回 {struck}　沒走到或不寫 {untried}",
            "en": "sealed {sealed} · struck {struck} · never reached or never written {untried}",
        },
        "t_counts_unjudged": {"zh": "　還沒判 {unjudged}", "en": " · not judged yet {unjudged}"},
        "t_corrected": {
            "zh": "接在蓋印的路後面、第 {depth} 層的異文，他全部退回，親筆寫下「{good}」。",
            "en": "He rejected every variant that continues the sealed path at depth {depth} and wrote “{good}” himself.",
        },
        "t_bonus": {
            "zh": "路走到葉子，他從同一次校閱再加一個「{good}」。",
            "en": "The path reached a leaf, and the same glance gives him one more, “{good}”.",
        },
        "t_order_sampled": {
            "zh": "同一層、同一個上層之下，由上而下是阿速抽出的次序，也是墨卿試的次序：他依序試到接受一個為止，再往它下面一層走。",
            "en": "Under one node, top to bottom is the order the scribe drew them and the order the master tries them: "
            "he tries them in turn until he accepts one, then walks on beneath it.",
        },
        "t_order_greedy": {
            "zh": "溫度 0：墨卿只接受他自己第一選擇的那個，其餘退回。",
            "en": "At temperature 0 the master accepts only the variant that is his own first choice and strikes the others.",
        },
        "t_folded": {
            "zh": "樹太大，第 {depth} 層以下收起，以「+n」表示收起的異文數。",
            "en": "The tree is large: below depth {depth} it is folded, “+n” counting the variants folded away.",
        },
        "t_unreadable": {
            "zh": "這一輪記錄的樹與它的結果不符（手改過的檔案？），所以不畫。",
            "en": "This round's recorded tree does not agree with its outcome (a hand-edited file?), so it is not drawn.",
        },
        "t_margin": {
            "zh": "紙上那一行上方的小字，就是這一輪的其他異文，標記與這裡相同。",
            "en": "The small characters above the line on the sheet are this round's other variants, marked as here.",
        },
        "m_more": {"zh": "這一層還有 {n} 個異文，沒有寫在紙邊", "en": "{n} more variants at this depth, not written in the margin"},
        "l_sealed": {"zh": "朱印：墨卿接受的路", "en": "red seal: the path the master accepted"},
        "l_struck": {"zh": "朱線刪去：試過、退回", "en": "struck in red: tried and rejected"},
        "l_untried": {"zh": "點線淡字：墨卿沒走到（或在篇末之後，不寫）", "en": "dotted, faint: the master's walk never reached it (or it lies past the end mark, never written)"},
        "l_unjudged": {"zh": "淡墨虛框：這一層還沒判", "en": "light, dashed: not judged yet at this depth"},
        "l_corrected": {"zh": "朱字：墨卿親筆改正", "en": "red: the master's correction"},
        "l_bonus": {"zh": "粗框：整條路通過後的加筆", "en": "bold box: the bonus after a full path"},
        "l_more": {"zh": "+n：底下收起的異文數", "en": "+n: variants folded away beneath it"},
    }
)
