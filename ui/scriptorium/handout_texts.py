"""Words of the scriptorium's handout: the sheet as an SVG that stands alone on paper."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "h_title": {
            "zh": "御筆樓：推測解碼的一次抄寫（第 {step} / {steps} 步）",
            "en": "The scriptorium: one run of speculative decoding (step {step} of {steps})",
        },
        "h_settings": {
            "zh": "模型組 {pair}　抄寫員 {scribe}　k = {k}　溫度 {temperature:g}　top-p {top_p:g}　手抖 {noise:g}　種子 {seed}　"
            "最多寫 {length} 個{unit}",
            "en": "Pair {pair} · scribe {scribe} · k = {k} · temperature {temperature:g} · top-p {top_p:g} · "
            "shaky hand {noise:g} · seed {seed} · at most {length} {units}",
        },
        "h_counters": {
            "zh": "到這一步：已寫 {tokens} 個{unit}　墨卿看了 {glances} 眼　接受率 α = {alpha}　每看一眼得 {per_glance} 個{unit}",
            "en": "At this step: {tokens} {units} written · {glances} glances of the master · α = {alpha} · "
            "{per_glance} {units} per glance",
        },
        "h_prompt": {"zh": "灰底：開頭", "en": "grey: the prompt"},
        "h_draft": {"zh": "淡墨虛框：阿速的草稿，墨卿還沒看", "en": "light, dashed: A-Su's draft, not yet checked"},
        "h_sealed": {"zh": "右下朱印：墨卿接受", "en": "red seal: accepted by the master"},
        "h_struck": {"zh": "朱線刪去：被退回", "en": "struck in red: rejected"},
        "h_discarded": {"zh": "虛框刪去：作廢的草稿，不寫出", "en": "dashed and struck: discarded drafts, never written"},
        "h_corrected": {"zh": "朱字：墨卿的朱筆改正", "en": "red: the master's correction"},
        "h_bonus": {"zh": "粗框：整行通過後墨卿的加筆", "en": "bold box: the master's bonus after a full line"},
        "h_marks": {
            "zh": "控制符：▷ 篇首　∎ 篇末　⟨ ⟩ 對話一輪的開始與結束　◇ 其他",
            "en": "control tokens: ▷ start of the text · ∎ end of the text · ⟨ ⟩ a chat turn's start and end · "
            "◇ any other",
        },
        "h_link": {"zh": "打開這一次抄寫：", "en": "Open this run:"},
        # a tree run (#35): its tree where a chain gives k, and the margin's variants
        "h_settings_tree": {
            "zh": "模型組 {pair}　抄寫員 {scribe}　草稿樹 {tree}　溫度 {temperature:g}　top-p {top_p:g}　手抖 {noise:g}　種子 {seed}　"
            "最多寫 {length} 個{unit}",
            "en": "Pair {pair} · scribe {scribe} · tree {tree} · temperature {temperature:g} · top-p {top_p:g} · "
            "shaky hand {noise:g} · seed {seed} · at most {length} {units}",
        },
        "h_v_unjudged": {"zh": "上方小字虛框：草稿樹的其他異文，還沒判", "en": "small, dashed, above: the tree's other variants, not yet judged"},
        "h_v_struck": {"zh": "上方小字朱線：試過、退回的異文", "en": "small, struck, above: variants tried and rejected"},
        "h_v_untried": {"zh": "上方小字點線：墨卿沒走到的異文", "en": "small, dotted, above: variants the master's walk never reached"},
        # a tree run's counters: its alpha is the first variants' (tree_walk.judged_steps), named as the stepper names it
        "h_counters_tree": {
            "zh": "到這一步：已寫 {tokens} 個{unit}　墨卿看了 {glances} 眼　接受率 α（每層第一個異文）= {alpha}　每看一眼得 {per_glance} 個{unit}",
            "en": "At this step: {tokens} {units} written · {glances} glances of the master · α (first variants) = {alpha} · "
            "{per_glance} {units} per glance",
        },
    }
)
