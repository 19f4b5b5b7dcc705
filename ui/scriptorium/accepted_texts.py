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
    }
)
