"""Words of the shared sidebar and of messages every page may show."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "language": {"zh": "語言", "en": "Language"},
        "large_type": {"zh": "大字（投影用）", "en": "Large type (projector)"},
        "presenter": {"zh": "講台模式", "en": "Presenter mode"},
        "presenter_help": {
            "zh": "投影用：收起側欄，字放大，頂上一排頁籤換頁，御筆樓一屏放下故事、稿紙、按鈕與計數。"
            "鍵盤：← → 一步，空白鍵播放，Home／End 到頭尾，Esc 離開。",
            "en": "For the projector: the sidebar folds away, type grows, a strip of page links on top changes pages, and the "
            "scriptorium fits the story, the sheet, the buttons and the counters on one screen. "
            "Keys: ← → step, Space plays, Home/End jump, Esc leaves.",
        },
        "leave_presenter": {"zh": "離開講台模式", "en": "Leave presenter mode"},  # its key, Esc, is drawn beside it
        "settings": {"zh": "這一次抄寫", "en": "This run"},
        "pair": {"zh": "模型組", "en": "Model pair"},
        "device": {"zh": "運算裝置", "en": "Device"},
        "advanced": {"zh": "進階", "en": "Advanced"},
        "other_pair": {"zh": "其他模型組：目標,草稿", "en": "Another pair: TARGET,DRAFT"},
        "other_pair_help": {
            "zh": "兩個共用同一詞彙表的模型，以逗號分開，寫它們在本伺服器模型資料夾裡的資料夾名稱（例如 smollm2-360m,smollm2-135m）。"
            "只讀 safetensors，不執行模型附帶的程式，也不連上任何模型庫。留空則用上面選的模型組。",
            "en": "Two models sharing one vocabulary, separated by a comma: the names of their folders in this server's model "
            "folder (for example smollm2-360m,smollm2-135m). Safetensors only, no remote code, no model hub. Leave empty to "
            "use the pair chosen above.",
        },
        "using_other": {"zh": "使用其他模型組：{pair}", "en": "Using another pair: {pair}"},
        "scribe": {"zh": "抄寫員阿速（草稿品質）", "en": "Scribe A-Su (draft quality)"},
        "scribe_help": {
            "zh": "由左到右，抄寫員的筆跡越來越像墨卿（依實測接受率 α 排列）。",
            "en": "Left to right, the scribe's hand resembles the master's more (ordered by measured acceptance α).",
        },
        "noise": {"zh": "手抖（把 q 混入均勻分布）", "en": "Shaky hand (mix q with uniform)"},
        "noise_help": {
            "zh": "q ← (1 − 手抖)·q + 手抖·均勻分布：讓任何抄寫員變差，觀察 α 下降。",
            "en": "q ← (1 − shake)·q + shake·uniform: makes any scribe worse, so you can watch α fall.",
        },
        "k": {"zh": "每行草稿{unit}數 k", "en": "Drafted {units} per line k"},
        "temperature": {"zh": "溫度（0 = 貪婪）", "en": "Temperature (0 = greedy)"},
        "top_p": {"zh": "top-p", "en": "top-p"},
        "seed": {"zh": "隨機種子", "en": "Seed"},
        "max_new": {"zh": "新寫{unit}數", "en": "New {units}"},
        "prompt": {"zh": "開頭", "en": "Prompt"},
        "examples": {"zh": "範例開頭", "en": "Example prompts"},
        "share": {
            "zh": "網址已記下所有設定：複製網址，別人打開就是同一次抄寫。",
            "en": "The address bar holds every setting: share the link and others open exactly this run.",
        },
        "loading_pair": {"zh": "正在請墨卿與阿速入座（載入模型）…", "en": "Seating the master and the scribe (loading models)…"},
        "cannot_load": {"zh": "無法載入這組模型：{error}", "en": "Cannot load this model pair: {error}"},
        "cannot_run": {"zh": "無法抄寫：{error}", "en": "Cannot run: {error}"},
        "no_pair": {"zh": "請先在側欄選一組能載入的模型。", "en": "Choose a model pair that loads, in the sidebar."},
        "bad_link": {
            "zh": "連結裡的 {key}={value} 無法使用，已改用預設值。",
            "en": "The link's {key}={value} cannot be used; the default is used instead.",
        },
        "bad_link_allowed": {"zh": "可用的值：{allowed}。", "en": " Allowed: {allowed}."},
        "other_not_allowed": {
            "zh": "這台伺服器只載入登記的模型組",
            "en": "this server loads its registered pairs only",
        },
        "not_archived": {
            "zh": "這次抄寫照常完成，但沒有存進卷宗（{error}）：請告訴架設伺服器的人。",
            "en": "This run finished, but it was not saved to the archive ({error}): tell whoever runs the server.",
        },
        "rule:exact": {"zh": "鐵律（正確）", "en": "exact (the iron rule)"},
        "rule:accept-all": {"zh": "照單全收", "en": "accept-all"},
        "rule:exact-match": {"zh": "相同才收", "en": "exact-match"},
        "rule:resample-p": {"zh": "退回後從 p 重抽", "en": "resample-p"},
        "rule:greedy-soft-q": {"zh": "貪婪挑字、軟 q 計分", "en": "greedy-soft-q"},
        "rule:raw-q": {"zh": "用處理前的 q", "en": "raw-q"},
        "rule:tree-no-residual": {"zh": "異文不扣殘差", "en": "tree-no-residual"},
        "error_prompt_empty": {"zh": "開頭是空的：請至少寫一個字", "en": "the prompt is empty: write at least one character"},
        "error_unknown_characters": {"zh": "詞彙表裡沒有這些字：{characters}", "en": "the vocabulary lacks these characters: {characters}"},
        "error_too_many_new": {
            "zh": "{new} 個新{unit}放不下：這組模型連開頭最多讀 {limit} 個{unit}",
            "en": "{new} new {units} do not fit: this pair reads at most {limit} {units}, prompt included",
        },
        "error_prompt_too_long": {
            "zh": "開頭有 {tokens} 個{unit}；再寫 {new} 個新{unit}，開頭最多只能有 {limit} 個",
            "en": "the prompt has {tokens} {units}; with {new} new ones it may have at most {limit}",
        },
        "error_run_too_long": {
            "zh": "開頭 {prompt} 個詞元加上 {new} 個新詞元放不下：這組模型連開頭最多讀 {limit} 個詞元",
            "en": "a prompt of {prompt} tokens and {new} new ones do not fit: this model reads at most {limit} tokens, prompt included",
        },
        "error_run_too_costly": {
            "zh": "這次抄寫最多可能要算 {seconds} 秒，這台伺服器每次最多給 {limit} 秒：請少寫幾個字、把 k 或樹調小，或換一位好一點的抄寫員",
            "en": "this run may take up to {seconds} s of computing, and this server gives a run at most {limit} s: ask for fewer "
            "new tokens, a smaller k or tree, or a better scribe",
        },
        "error_visitor_busy": {
            "zh": "你已有一次長的計算正在排隊或進行：等它算完（或關掉那一頁）再試",
            "en": "you already have a long computation waiting or running: try again once it has finished (or its tab is closed)",
        },
        "error_visitor_budget": {
            "zh": "你在最近 {minutes} 分鐘裡已算了 {used} 秒，這次最多還要 {seconds} 秒，超過每位訪客的份額：請 {wait} 秒後再試",
            "en": "you have computed {used} s in the last {minutes} minutes and this run may need {seconds} s more, past each "
            "visitor's share: try again in {wait} s",
        },
        "error_tree_unreadable": {
            "zh": "樹的寫法是每一層的分枝數，例如 3-2-1-1（1 到 {most} 層），或 dynamic-W-B；這裡是 {value}",
            "en": "a tree is written as children per depth, such as 3-2-1-1 (1 to {most} depths), or as dynamic-W-B; got {value}",
        },
        "error_tree_branching": {
            "zh": "樹的每一層，每個節點有 1 到 {most} 個異文；這裡是 {value}",
            "en": "each depth of a tree has 1 to {most} children per node; got {value}",
        },
        "error_tree_too_big": {
            "zh": "樹 {value} 有 {nodes} 個節點；墨卿一眼核對 1 到 {most} 個",
            "en": "the tree {value} has {nodes} nodes; one glance of the master verifies 1 to {most}",
        },
        "error_tree_master": {
            "zh": "草稿樹要墨卿以精簡前向計算（CPU 上的 float32 Llama）一眼核對；這組模型的墨卿用的是別種計算",
            "en": "a tree needs the lean forward of a float32 Llama on CPU for the master; this master runs another",
        },
        "error_tree_scribe": {
            "zh": "抄寫員「{scribe}」只會寫一行草稿：草稿樹要由以精簡前向計算的模型抄寫員來寫",
            "en": "the scribe {scribe} drafts chains only: a tree needs a model scribe on the lean forward",
        },
        "error_siblings_unknown": {
            "zh": "草稿樹的異文只能「iid」（放回地抽）或「distinct」（不放回地抽）；收到的是 {value}",
            "en": "a tree's variants are drawn \"iid\" (with replacement) or \"distinct\" (without); got {value}",
        },
        "error_token_outside_vocabulary": {
            "zh": "開頭裡有詞元編號 {token}，但詞彙表的編號只到 {last}",
            "en": "the prompt holds token id {token}, but the vocabulary's ids end at {last}",
        },
        "error_max_new_tokens": {
            "zh": "新寫詞元數要在 1 到 {limit} 之間，這裡是 {value}",
            "en": "the number of new tokens must be from 1 to {limit}; it is {value}",
        },
        "error_more_than_max_new": {
            "zh": "紀錄寫了 {tokens} 個詞元，比它設定的上限 {new} 個還多",
            "en": "the record writes {tokens} tokens, more than its settings' limit of {new}",
        },
        "error_temperature": {
            "zh": "溫度要是 0（貪婪）或在 {low} 到 {high} 之間，這裡是 {value}",
            "en": "the temperature must be 0 (greedy) or from {low} to {high}; it is {value}",
        },
        "error_extra_too_deep": {
            "zh": "欄位 extra 疊了超過 {limit} 層，不是這個 app 寫得出的紀錄",
            "en": "the field extra nests more than {limit} levels deep, which no run of this app writes",
        },
        "error_settings_unreadable": {
            "zh": "這次抄寫的設定讀不回來（少了欄位，或型別不對）",
            "en": "the run's settings cannot be read back (a field is missing or has the wrong type)",
        },
        "error_no_draft": {"zh": "模型組「{pair}」沒有抄寫員「{draft}」；可選：{choices}", "en": "pair “{pair}” has no scribe “{draft}”; choose one of: {choices}"},
        "error_unknown_pair": {"zh": "沒有模型組「{pair}」；這台伺服器只有：{choices}", "en": "no pair “{pair}”; this server has only: {choices}"},
        "error_no_device": {"zh": "這裡沒有運算裝置「{device}」；可選：{choices}", "en": "no device “{device}” here; choose one of: {choices}"},
        "error_not_folder_name": {
            "zh": "「{name}」不是資料夾名稱（只能用字母、數字、「.」「_」「-」，不能有路徑）",
            "en": "“{name}” is not a folder name (letters, digits, '.', '_' and '-'; no path)",
        },
        "error_no_folder": {"zh": "伺服器的模型資料夾裡沒有「{name}」", "en": "the server's model folder has no folder named “{name}”"},
        "error_files_missing": {
            "zh": "這台機器缺少模型組「{pair}」的檔案（請看 README 的安裝說明）",
            "en": "this machine lacks the files of the pair “{pair}” (see the README on installing)",
        },
        "recorded": {
            "zh": "這是錄好的結果，不是現在跑的：{when} UTC 在 {machine} 上以 `{command}` 錄下。按下按鈕就現場重跑，跑完會換上新結果。",
            "en": "A recorded result, not a live one: recorded {when} UTC on {machine} with `{command}`. Press the button to run it "
            "live; the live result replaces this one when it finishes.",
        },
        "measured_when": {
            "zh": "現場量測，量於伺服器時間 {clock}（{ago}）。同樣設定的量測整台伺服器共用（賽跑與速度實驗室也是同一份），"
            "任何人按「再量一次」或「實測一次」都會換上新的。",
            "en": "Measured live at {clock} server time ({ago}). One measurement of these settings is shared by everyone on "
            "this server (the race and the speed lab show the same one); pressing “Time it again” or “Measure” replaces it for all.",
        },
        "ago_now": {"zh": "不到一分鐘前", "en": "less than a minute ago"},
        "ago_minutes": {"zh": "{n} 分鐘前", "en": "{n} min ago"},
        "running": {"zh": "墨卿與阿速正在抄寫…", "en": "The master and the scribe are writing…"},
        # the draft's shape: one line (a chain of k) or a tree of variants pencilled in the margin
        "shape": {"zh": "草稿形狀（頁邊異文）", "en": "Draft shape (variants in the margin)"},
        "shape_help": {
            "zh": "阿速可以只寫一行，也可以在頁邊用鉛筆批下異文：下一個字寫幾個，每個之下再為後一個字寫幾個，長成一棵草稿樹。"
            "墨卿一眼核對整棵樹，沿著他收下的那一枝寫下去。",
            "en": "A-Su may write one line, or pencil variants in the margin: a few for the next character, a few more under "
            "each for the one after, so the draft grows into a tree. The master checks the whole tree in one glance and "
            "writes on along the branch he accepts.",
        },
        "shape_chain": {"zh": "一行（鏈）", "en": "one line (chain)"},
        "shape_static": {"zh": "草稿樹 {shape}：{depths} 層，共 {nodes} 個異文", "en": "draft tree {shape}: {depths} depths, {nodes} variants"},
        "shape_dynamic": {
            "zh": "隨信心生長：最有把握的 {width} 處各寫 {width} 個，至多 {budget} 個異文",
            "en": "grown where A-Su is surest: {width} under each of his {width} surest, {budget} variants at most",
        },
        "shape_depths": {
            "zh": "畫草稿樹時不用 k：每輪最多寫 {depths} 層，墨卿一眼核對整棵樹（至多 {nodes} 個異文）。",
            "en": "With a tree, k is not used: each round drafts at most {depths} depths, and the master checks the whole "
            "tree ({nodes} variants at most) in one glance.",
        },
        "shape_grows": {
            "zh": "畫草稿樹時不用 k：樹往阿速最有把握的地方長，每輪至多 {budget} 個異文，長多深看他多有把握；墨卿一眼核對整棵樹。",
            "en": "With a tree, k is not used: the tree grows where A-Su is surest, {budget} variants at most a round, as "
            "deep as his confidence carries it; the master checks the whole tree in one glance.",
        },
        "k_help_tree": {"zh": "選了草稿樹，這一格不用：每輪寫多深由樹決定。", "en": "Not used with a tree: the tree decides how deep each round drafts."},
        "tree_refused": {
            "zh": "這次不畫草稿樹，照一行 {k} 個{unit}抄寫：{why}。",
            "en": "This run drafts one line of {k} {units}, not a tree: {why}.",
        },
        "tree_not_on_iron_rule": {
            "zh": "側欄選了草稿樹 {shape}：開頭與已寫的字取自那次抄寫，但這一頁只看其中一個位置，異文是上面選的一個或兩個，不是那棵樹。",
            "en": "The sidebar chose the draft tree {shape}: the prompt and the text so far come from that run, but this page "
            "looks at one position of it, with the one or two variants chosen above, not that tree.",
        },
        "tree_not_on_proof_chain": {
            "zh": "側欄選了草稿樹 {shape}，這一頁不用它：這裡的阿速每輪最多寫一行 {k} 個{unit}。要證明樹，打開上面的草稿樹開關。",
            "en": "The sidebar chose the draft tree {shape}; this page does not use it: here A-Su drafts one line of at most "
            "{k} {units} a round. To prove a tree, switch on the draft tree above.",
        },
        "tree_not_on_proof_tree": {
            "zh": "側欄選了草稿樹 {shape}，這一頁不用它：這裡畫的是上面選的樹 {branching}。",
            "en": "The sidebar chose the draft tree {shape}; this page does not use it: it draws the tree chosen above, {branching}.",
        },
    }
)
