"""Words of the scriptorium's accepted-length section."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "a_title": {"zh": "每輪蓋印幾個{unit}：這一次抄寫對照理論", "en": "Drafts accepted per round: this run against the theory"},
        "a_observed": {"zh": "這一次抄寫的輪數", "en": "rounds in this run"},
        "a_law": {"zh": "理論：α = {alpha:.2f} 的截斷幾何分布", "en": "theory: the cut-off geometric law, α = {alpha:.2f}"},
        "a_accepted": {"zh": "一輪蓋印的草稿{unit}數", "en": "drafts accepted in a round"},
        "a_rounds": {"zh": "輪數", "en": "rounds"},
        "a_caption": {
            "zh": "長條：這一次抄寫的 {n} 輪裡，各有幾輪蓋印了 0、1、2…個草稿{unit}。折線：假設每個草稿{unit}各自以同一機率 "
            "α = {alpha:.2f}（本次實測）被接受時預期的輪數：蓋印 i 個的機率是 α^i(1−α)，蓋滿整行（k 個）則是 α^k，"
            "因為一行只有 k 個草稿{unit}；每一輪按它自己的草稿{unit}數截斷。輪數少時，長條離折線遠是常事。",
            "en": "Bars: of this run's {n} rounds, how many accepted 0, 1, 2 … drafts. Line: the rounds expected if every "
            "draft were accepted with the same chance α = {alpha:.2f} (this run's), independently: i accepted with "
            "chance α^i(1−α), the whole line (k) with chance α^k, since a line holds only k drafts; each round is cut "
            "off at its own number of drafts. With few rounds, bars far from the line are to be expected.",
        },
        "a_left_out": {
            "zh": "不計入：{undrafted} 輪沒有草稿（只剩一個{unit}可寫），{ended} 輪寫到結束符 ∎ 即停（之後的裁決不會寫出）。",
            "en": "Left out: {undrafted} rounds with no drafts (one {unit} left to write), and {ended} rounds whose line "
            "reached the end mark ∎ (the text stops there, so the rest of their verdict is never written).",
        },
        "a_none": {"zh": "這一次抄寫沒有可以對照的一輪。", "en": "This run has no round to compare."},
        # a tree run (issue 35): what its rounds wrote against its trees' depth, with no chain's law, and its depths counted
        "a_title_tree": {"zh": "每輪寫下幾個{unit}：這一次草稿樹的抄寫", "en": "{Units} written per round: this tree run"},
        "a_written": {"zh": "一輪寫下的{unit}數", "en": "{units} written in a round"},
        "a_caption_tree": {
            "zh": "長條：這一次抄寫的 {n} 輪裡，各有幾輪寫下 1、2、3…個{unit}：草稿樹每通過一層（那一層有一個異文蓋印）寫一個{unit}，"
            "最後是墨卿自己的一個{unit}（他的改正，或走到葉子後的加筆）。這裡的草稿樹最深 {depth} 層，所以一輪最多寫 {most} 個。"
            "這裡不畫理論的折線：截斷幾何分布是鏈狀草稿的，每一層只有一個草稿{unit}，以同一機率 α 通過；"
            "草稿樹的一層若有幾個異文，前一個被刪去才試下一個，任何一個蓋印就通過，所以通過一層的機率不是 α。",
            "en": "Bars: of this run's {n} rounds, how many wrote 1, 2, 3 … {units}: one for each depth of the tree passed (a "
            "variant there sealed), then the master's own {unit} (his correction, or the bonus after a leaf). The trees here "
            "are at most {depth} deep, so a round writes at most {most}. No law is drawn: the cut-off geometric law is a "
            "chain's, where each depth holds one draft that passes with the same chance α; a tree's depth with several "
            "variants is passed when any of them is sealed, each tried after the one before was struck, so the chance to "
            "pass it is not α.",
        },
        "a_depth": {
            "zh": "第 {depth} 層走到 {reached} 輪、通過 {passed} 輪，其中第一個異文就蓋印的 {first} 輪",
            "en": "depth {depth} reached in {reached} rounds and passed in {passed}, by its first variant in {first}",
        },
        "a_depth_sep": {"zh": "；", "en": "; "},
        "a_depths": {
            "zh": "逐層看這些輪：{depths}。每一層的第一個異文和鏈狀草稿的{unit}一樣，對著墨卿自己的 p 試；之後的異文要等前一個被刪去才試。",
            "en": "Depth by depth in these rounds: {depths}. A depth's first variant is tried against the master's own p, "
            "as a chain's draft is; a later variant only after the one before it was struck.",
        },
    }
)
