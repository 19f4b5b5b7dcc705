"""Words of the archive page (卷宗) and of its replay and import messages."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "intro": {
            "zh": "在御筆樓逐步看過的每一張抄寫紙都收進卷宗：只要往下走一步，這一次抄寫就自動存在這裡（拉動側欄滑桿途中的抄寫不存）。"
            "可以依模型組、抄寫員、k 與日期篩選，選一卷看內容，送回御筆樓逐輪重看，或匯出成 JSON 帶走。",
            "en": "Every sheet stepped through in the tower is filed here: a run is saved automatically once you take a step in it "
            "(the runs made on the way as a sidebar slider moves are not). "
            "Filter by model pair, scribe, k and date, open a run, replay it round by round in the scriptorium, "
            "or export it as JSON.",
        },
        "where": {
            "zh": "卷宗共 {runs}。（存放的位置由架設伺服器的人以環境變數 SCRIPTORIUM_ARCHIVE 決定。）",
            "en": "The archive holds {runs}. (Whoever runs the server chooses where it is kept, with the SCRIPTORIUM_ARCHIVE environment variable.)",
        },
        "cap": {
            "zh": "卷宗最多收 {runs:,} 卷，紀錄壓縮後最多 {mb} MB。收滿時，本 app 寫的卷從最舊的刪起，騰出位置。"
            "匯入的卷是你的，不會被刪：最多 {imported:,} 卷、{imported_mb} MB，每位訪客最多 {own:,} 卷、{own_mb} MB，"
            "滿了就不再接受匯入，要先刪掉一卷匯入的。每位訪客只能刪除自己寫下或匯入的卷。",
            "en": "The archive keeps at most {runs:,} runs, their records at most {mb} MB compressed. When it is full, the runs this app made are dropped, "
            "oldest first, to make room. Imported runs are yours and never dropped: up to {imported:,} of them in "
            "{imported_mb} MB, {own:,} in {own_mb} MB for each visitor, after which an import is refused until an imported "
            "run is deleted. Each visitor may delete only the runs they made or imported.",
        },
        "archive_broken": {
            "zh": "卷宗打不開，這次無法讀寫：{error}",
            "en": "The archive cannot be opened, so nothing can be read or saved: {error}",
        },
        "filters": {"zh": "篩選", "en": "Filter"},
        "any": {"zh": "全部", "en": "All"},
        "pair": {"zh": "模型組", "en": "Model pair"},
        "scribe": {"zh": "抄寫員", "en": "Scribe"},
        "k": {"zh": "每行草稿字數 k", "en": "Drafted tokens per line k"},
        "date_from": {"zh": "從（UTC 日期）", "en": "From (UTC date)"},
        "date_to": {"zh": "到（UTC 日期）", "en": "To (UTC date)"},
        "bad_dates": {"zh": "「從」的日期在「到」之後，沒有任何一卷符合。", "en": "The 'from' date is after the 'to' date, so no run can match."},
        "empty": {
            "zh": "卷宗還是空的：到「御筆樓」逐步看一次抄寫，或在下方匯入一個 JSON 檔。",
            "en": "The archive is empty: step through a run in the scriptorium, or import a JSON file below.",
        },
        "no_match": {"zh": "沒有符合這些篩選條件的抄寫。", "en": "No run matches these filters."},
        "shown": {"zh": "顯示 {shown} 卷（共 {runs}）。點一列或在下方選一卷。", "en": "Showing {shown} of {runs}. Click a row or choose one below."},
        "runs_one": {"zh": "1 卷", "en": "1 run"},
        "runs_many": {"zh": "{n} 卷", "en": "{n} runs"},
        "col_id": {"zh": "編號", "en": "No."},
        "col_created": {"zh": "時間（UTC）", "en": "Time (UTC)"},
        "col_source": {"zh": "來源", "en": "Source"},
        "col_temperature": {"zh": "溫度", "en": "T"},
        "col_seed": {"zh": "種子", "en": "Seed"},
        "col_prompt": {"zh": "開頭", "en": "Prompt"},
        "col_tokens": {"zh": "字數", "en": "Tokens"},
        "col_alpha": {"zh": "α", "en": "α"},
        "col_per_forward": {"zh": "每眼字數", "en": "Per glance"},
        "col_alpha_help": {"zh": "平均接受機率", "en": "mean acceptance"},
        "col_per_forward_help": {"zh": "墨卿每看一眼寫幾字", "en": "tokens per target forward"},
        "source_app": {"zh": "本 app", "en": "this app"},
        "source_import": {"zh": "匯入", "en": "imported"},
        "plain_scribe": {"zh": "（墨卿獨寫）", "en": "(master alone)"},
        "choose": {"zh": "打開哪一卷", "en": "Open run"},
        "choice_label": {"zh": "#{id} · {time} · {pair}/{scribe} · {shape} · 「{prompt}」", "en": "#{id} · {time} · {pair}/{scribe} · {shape} · “{prompt}”"},
        "tree_shape": {"zh": "草稿樹 {shape}", "en": "tree {shape}"},
        "chain": {"zh": "一行", "en": "one line"},
        "col_tree": {"zh": "草稿形狀", "en": "Shape"},
        "run_title": {"zh": "第 {id} 卷", "en": "Run #{id}"},
        "run_facts": {
            "zh": "{time} UTC · 模型組 {pair} · 抄寫員 {scribe} · {shape} · 溫度 {temperature} · 種子 {seed} · 來源：{source}",
            "en": "{time} UTC · pair {pair} · scribe {scribe} · {shape} · temperature {temperature} · seed {seed} · source: {source}",
        },
        "prompt_label": {"zh": "開頭", "en": "Prompt"},
        "text_label": {"zh": "寫成的字", "en": "Written"},
        "tokens": {"zh": "新寫字數", "en": "New tokens"},
        "forwards": {"zh": "墨卿看了幾眼", "en": "Target forwards"},
        "per_forward": {"zh": "每看一眼寫幾字", "en": "Tokens per target forward"},
        "alpha": {"zh": "α（平均接受機率）", "en": "α (mean acceptance)"},
        "unreadable": {
            "zh": "第 {id} 卷讀不出來（{error}），可以把它刪掉。",
            "en": "Run #{id} cannot be read ({error}); you may delete it.",
        },
        "replay": {"zh": "送回御筆樓重看", "en": "Replay in the scriptorium"},
        "replay_help": {
            "zh": "在「御筆樓」頁逐輪重看這一卷：用存下來的紀錄，不重新抄寫。",
            "en": "Step through this run on the scriptorium page, from the stored record, without running it again.",
        },
        "export": {"zh": "匯出 JSON", "en": "Export JSON"},
        "delete": {"zh": "刪除這一卷", "en": "Delete this run"},
        "delete_confirm": {"zh": "確定刪除第 {id} 卷（無法復原）", "en": "Yes, delete run #{id} (cannot be undone)"},
        "deleted": {"zh": "第 {id} 卷已刪除。", "en": "Run #{id} was deleted."},
        "not_deleted": {"zh": "第 {id} 卷沒有刪除：它已不在卷宗裡，或不是你的。", "en": "Run #{id} was not deleted: it is gone already, or it is not yours."},
        "delete_not_yours": {
            "zh": "只有寫下或匯入這一卷的訪客能刪除它（或開這台伺服器的人）。",
            "en": "Only the visitor who made or imported this run may delete it (or whoever runs this server).",
        },
        "operator": {"zh": "伺服器管理者", "en": "Server operator"},
        "operator_token": {"zh": "管理者口令（開這台伺服器的人設定的那一組）",
                           "en": "Operator token (SCRIPTORIUM_OPERATOR_TOKEN, set when the server was started)"},
        "operator_yes": {"zh": "這一頁是管理者的：可以刪除任何一卷。", "en": "This tab is the operator's: it may delete any run."},
        "operator_no": {"zh": "口令不對：這一頁只能刪除自己的卷。", "en": "That is not the token: this tab may delete only its own runs."},
        "import": {"zh": "匯入抄寫紀錄", "en": "Import a trace"},
        "import_help": {
            "zh": "選一個從這裡匯出的 JSON 檔（最多 {mb} MB）。檔案會先完整檢查，有問題就不會放進卷宗。",
            "en": "Choose a JSON file exported from here (at most {mb} MB). It is checked in full first; a faulty file never enters the archive.",
        },
        "upload": {"zh": "JSON 檔", "en": "JSON file"},
        "imported": {"zh": "已匯入，成為第 {id} 卷。", "en": "Imported as run #{id}."},
        "already_there": {"zh": "這一卷已經在卷宗裡了（第 {id} 卷），沒有重複存入。", "en": "This run is already in the archive (run #{id}); nothing was added."},
        "too_big": {
            "zh": "檔案有 {size:,} 位元組，超過上限 {limit:,}：沒有匯入，卷宗沒有任何改變。",
            "en": "The file is {size:,} bytes, over the limit of {limit:,}: nothing was imported and the archive is unchanged.",
        },
        "not_json": {
            "zh": "這個檔案不是 JSON（{error}）：沒有匯入，卷宗沒有任何改變。",
            "en": "This file is not JSON ({error}): nothing was imported and the archive is unchanged.",
        },
        "archive_yours_full": {
            "zh": "你已匯入 {runs:,} 卷、{mb:.1f} MB，每位訪客最多 {limit_runs:,} 卷、{limit_mb} MB：沒有匯入，卷宗沒有任何改變。"
            "先刪掉一卷你匯入的，才能再匯入。",
            "en": "You have imported {runs:,} runs in {mb:.1f} MB, and each visitor may keep {limit_runs:,} in {limit_mb} MB: "
            "nothing was imported and the archive is unchanged. Delete one of your imported runs to make room.",
        },
        "archive_full": {
            "zh": "卷宗裡已有 {runs:,} 卷匯入的紀錄、{mb:.1f} MB，匯入的上限是 {limit_runs:,} 卷、{limit_mb} MB：沒有匯入，"
            "卷宗沒有任何改變。先刪掉一卷匯入的，才能再匯入。",
            "en": "The archive holds {runs:,} imported runs in {mb:.1f} MB, and keeps at most {limit_runs:,} in {limit_mb} MB: "
            "nothing was imported and the archive is unchanged. Delete an imported run to make room.",
        },
        "prompt_chars": {
            "zh": "這份紀錄的開頭有 {chars:,} 個字，卻只有 {tokens:,} 個詞元；一個詞元最多寫成 {per_token} 個字，"
            "開頭最多 {limit:,} 個字，所以不是任何一次抄寫寫得出來的：沒有匯入，卷宗沒有任何改變。",
            "en": "This trace's prompt has {chars:,} characters for its {tokens:,} tokens; a token reads as at most "
            "{per_token} characters, so at most {limit:,}, and no run writes it: nothing was imported and the archive is unchanged.",
        },
        "text_chars": {
            "zh": "這份紀錄寫成的字有 {chars:,} 個，卻只有 {tokens:,} 個詞元；一個詞元最多寫成 {per_token} 個字，"
            "最多 {limit:,} 個字，所以不是任何一次抄寫寫得出來的：沒有匯入，卷宗沒有任何改變。",
            "en": "This trace's text has {chars:,} characters for its {tokens:,} tokens; a token reads as at most "
            "{per_token} characters, so at most {limit:,}, and no run writes it: nothing was imported and the archive is unchanged.",
        },
        "not_trace": {
            "zh": "這個 JSON 不是一份完整的抄寫紀錄（{error}）：沒有匯入，卷宗沒有任何改變。",
            "en": "This JSON is not a complete trace ({error}): nothing was imported and the archive is unchanged.",
        },
        "check": {"zh": "重跑核對", "en": "Check by replay"},
        "check_help": {
            "zh": "用這一卷自己的設定（模型組、抄寫員、開頭、種子…）在這台伺服器上再寫一次，逐字比對。改過種子或內容的卷宗會露出馬腳。",
            "en": "Writes the run again on this server with its own settings (pair, scribe, prompt, seed…) and compares token "
            "for token. A file whose seed or text was edited shows it.",
        },
        "checking": {"zh": "照原設定重寫一次…", "en": "Writing it again with its own settings…"},
        "check_same": {"zh": "重寫結果逐字相同（{n} 字）：這一卷確實是這組設定寫的。", "en": "The replay is the same, token for token ({n} tokens): these settings wrote this run."},
        "check_differs": {
            "zh": "重寫結果從第 {at} 字起不同（卷宗是{stored}，重寫是{replayed}）：這一卷不是它記的設定寫出來的。",
            "en": "The replay differs from token {at} on (stored {stored}, replayed {replayed}): these settings did not write this run.",
        },
        "check_token": {"zh": "「{piece}」（詞元編號 {id}）", "en": "“{piece}” (token id {id})"},
        "check_no_token": {"zh": "（全文已結束）", "en": "(the text had ended)"},
        "check_no_pair": {"zh": "這台伺服器沒有模型組「{pair}」，無法重跑。", "en": "This server has no pair “{pair}” to replay it with."},
        "check_cannot": {"zh": "無法重跑：{error}", "en": "Cannot replay it: {error}"},
        "replay_missing": {
            "zh": "卷宗裡找不到第 {run} 卷（可能已刪除，或是別台電腦的卷宗），這裡照側欄設定重新抄寫。",
            "en": "Run {run} is not in this archive (deleted, or from another computer's archive); showing a fresh run from the sidebar instead.",
        },
        # a tree run's alpha (issue 35): the mean over the first variant at each depth reached (tree_walk.judged_steps)
        "alpha_tree": {"zh": "α（平均接受機率，每層第一個異文）", "en": "α (mean acceptance, first variants)"},
        "alpha_tree_help": {
            "zh": "草稿樹每一層的第一個異文和鏈狀草稿的{unit}一樣對著墨卿的 p 試：這是它們 min(1, p/q) 的平均。之後的異文對著殘差試，不算進 α。",
            "en": "A tree's first variant at each depth is tried against the master's p, as a chain's draft is: this is the "
            "mean of their min(1, p/q). Later variants are tried against a residual and are not counted in α.",
        },
        "col_alpha_help_trees": {
            "zh": "平均接受機率（草稿樹的卷：每層第一個異文的）",
            "en": "mean acceptance (in a tree run, of the first variant at each depth)",
        },
    }
)
