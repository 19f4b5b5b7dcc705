"""Words of the speed lab's glance section (its own file: the section is separate from the page's other texts)."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "glance_title": {"zh": "看一眼有多便宜：墨卿一次校閱幾個位置", "en": "How cheap is a glance: positions the master checks at once"},
        "glance_intro": {
            "zh": "墨卿每一輪只看一眼（目標模型的一次前向計算），這一眼同時校完阿速的 k 個草稿{unit}，再多算一個位置。"
            "下面在這台機器上實測：一次前向計算校閱 1、2、…、32 個位置，各要多少毫秒。",
            "en": "Each round the master glances once (one forward pass of the target model), and that one glance checks "
            "the scribe's k drafts and one more position. Measured below on this machine: how many milliseconds one "
            "forward takes to check 1, 2, … 32 positions.",
        },
        "glance_measure": {"zh": "量一量這一眼", "en": "Time the glance"},
        "glance_measure_help": {
            "zh": "幾秒鐘：每個位置數量各量十幾次，畫最快的一次。結果整台伺服器共用、標明量測時間；再按一次就重新量，換給所有人。",
            "en": "A few seconds: about fifteen forwards per size, the fastest drawn. The result is shared by everyone on this "
            "server with the time it was made; pressing again measures anew, for all.",
        },
        "glance_press": {"zh": "按「量一量這一眼」，在這台機器上實測。", "en": "Press “Time the glance” to measure it on this machine."},
        "glance_measuring": {"zh": "墨卿正一次次校閱 1 到 32 個位置…", "en": "The master is checking 1 to 32 positions, pass after pass…"},
        "glance_no_room": {
            "zh": "無法量測：提示已佔 {context} 個位置，模型最多只能讀 {limit} 個，放不下再多一個位置。",
            "en": "Cannot measure: the prompt already takes {context} positions and the model reads at most {limit}, "
            "with no room for one more.",
        },
        "g_title": {"zh": "一次前向計算的時間與校閱位置數", "en": "One forward pass's time against positions checked"},
        "g_forward": {"zh": "實測：一次校閱（最快的一次；細線：到最慢的一次）", "en": "measured: one forward (the fastest; bars: up to the slowest)"},
        "g_weights": {"zh": "把權重讀一遍（權重位元組 ÷ 實測複製速度）", "en": "reading the weights once (weight bytes ÷ measured copy speed)"},
        "g_round": {"zh": "你的一輪：k + 1 = {n}", "en": "your round: k + 1 = {n}"},
        "g_positions": {"zh": "一次前向計算校閱的位置數", "en": "positions checked in one forward"},
        "g_ms": {"zh": "毫秒", "en": "ms"},
        "glance_measured": {
            "zh": "實測於 {when}（UTC），裝置 {device}，{runtime}，提示已佔 {context} 個位置；每個位置數量量 {repeats} 次，畫最快的一次："
            "機器忙只會讓一次前向變慢，所以最快的一次最接近它本來的時間。",
            "en": "Measured at {when} UTC on {device}, {runtime}, after a prompt of {context} positions; {repeats} forwards per "
            "size, the fastest drawn: a busy machine only ever slows a forward, so the fastest is closest to its own time.",
        },
        "glance_roof_near": {
            "zh": "只校 1 個位置要 {t_one:.1f} 毫秒，是把權重讀一遍（{read:.2f} 毫秒）的 {ratio:.2f} 倍：一步的時間大半花在從記憶體搬權重，"
            "這台機器上的解碼正如寓言所說，受記憶體頻寬所限。",
            "en": "Checking 1 position takes {t_one:.1f} ms, {ratio:.2f} times reading the weights once ({read:.2f} ms): "
            "most of a step goes to bringing the weights from memory, so decoding here is bound by memory "
            "bandwidth, as the parable says.",
        },
        "glance_roof_far": {
            "zh": "只校 1 個位置要 {t_one:.1f} 毫秒，是把權重讀一遍（{read:.2f} 毫秒）的 {ratio:.2f} 倍：除了讀權重，"
            "每個運算各自的固定開銷也佔了不少時間。",
            "en": "Checking 1 position takes {t_one:.1f} ms, {ratio:.2f} times reading the weights once ({read:.2f} ms): beyond "
            "reading the weights, each operation's own fixed cost takes a good share of a step.",
        },
        "glance_gpu": {
            "zh": "寓言想的是 GPU 上的大模型：70 億參數的模型用 16 位元存，每寫一個詞元要讀約 14 GB 權重；A100 80GB 的記憶體頻寬約 2 TB/s"
            "（NVIDIA 規格表：2,039 GB/s），光是讀一遍就要約 7 毫秒，占了一步的大半，那裡的解碼受記憶體頻寬所限。"
            "這台機器上墨卿的權重只有 {mb:.1f} MB，讀一遍 {read:.2f} 毫秒，一步 {t_one:.1f} 毫秒的其餘時間是每個運算的固定開銷。",
            "en": "The parable pictures a large model on a GPU: a 7-billion-parameter model stored in 16 bits reads about 14 GB "
            "of weights for every token, and at about 2 TB/s of memory bandwidth (an A100 80GB: 2,039 GB/s, NVIDIA's "
            "datasheet) that reading alone takes about 7 ms, most of a step: there decoding is bound by memory bandwidth. "
            "Here the master's weights are {mb:.1f} MB, read in {read:.2f} ms, and the rest of a {t_one:.1f} ms step is each "
            "operation's fixed cost.",
        },
        "glance_cheap_both": {
            "zh": "兩種情形裡，時間都是按「一次前向」付的，不是按「位置」付的：讀權重也好、固定開銷也好，一眼看 k + 1 個位置只付一次，"
            "所以這一眼便宜。",
            "en": "In both cases the time is paid per forward, not per position: whether it goes to reading the weights or to "
            "fixed costs, a glance over k + 1 positions pays it once, and that is why the glance is cheap.",
        },
        "runtime_graph": {
            "zh": "墨卿以 ONNX Runtime 計算圖運算（float32 權重，{threads} 個執行緒）：這台 CPU 上他最快的精確算法，本站每次抄寫都用它",
            "en": "the master run as an ONNX Runtime graph (float32 weights, {threads} threads): his fastest exact forward on "
            "this CPU, which every run here uses",
        },
        "runtime_torch": {
            "zh": "墨卿以 torch 運算（{threads} 個執行緒，與本站每次抄寫相同）：計算圖目前只給 CPU 上詩句這一對的墨卿，這一對用 torch",
            "en": "the master run by torch ({threads} thread(s), as every run here): so far only the poetry pair's master gets a "
            "graph on CPU, and this pair runs on torch",
        },
        "glance_flat": {
            "zh": "校閱 {last} 個位置要 {t_last:.1f} 毫秒，是只校 1 個（{t_one:.1f} 毫秒）的 {ratio:.2f} 倍，而不是 {last} 倍："
            "一眼多看幾個位置幾乎不多花時間，推測解碼用的正是這一點。",
            "en": "Checking {last} positions takes {t_last:.1f} ms, {ratio:.2f} times checking one ({t_one:.1f} ms), not "
            "{last} times: looking at more positions in one glance costs little more, and that is what speculative "
            "decoding exploits.",
        },
        "glance_rising": {
            "zh": "校閱 {last} 個位置要 {t_last:.1f} 毫秒，是只校 1 個（{t_one:.1f} 毫秒）的 {ratio:.2f} 倍：仍比分開看 {last} 次便宜，"
            "但位置一多，墨卿的計算也開始花時間，所以在這台機器上 k 不宜太大。",
            "en": "Checking {last} positions takes {t_last:.1f} ms, {ratio:.2f} times checking one ({t_one:.1f} ms): still "
            "cheaper than {last} separate glances, but with many positions the master's arithmetic starts to cost time, "
            "a reason to keep k small on this machine.",
        },
        "glance_costly": {
            "zh": "校閱 {last} 個位置要 {t_last:.1f} 毫秒，是只校 1 個（{t_one:.1f} 毫秒）的 {ratio:.2f} 倍：在這台機器上一眼並不便宜，"
            "一次看多個位置省不了時間，推測解碼也就難以加速。",
            "en": "Checking {last} positions takes {t_last:.1f} ms, {ratio:.2f} times checking one ({t_one:.1f} ms): on this "
            "machine a glance is not cheap, checking many positions at once saves no time, and speculative decoding can "
            "hardly speed anything up.",
        },
        "glance_round": {
            "zh": "你的 k = {k}：一輪校閱 {n} 個位置要 {t:.1f} 毫秒，是只校 1 個的 {ratio:.2f} 倍。",
            "en": "Your k = {k}: a round checks {n} positions in {t:.1f} ms, {ratio:.2f} times one position.",
        },
        "glance_weights": {
            "zh": "虛線：每次前向都整個讀到的權重共 {mb:.1f} MB，按實測記憶體複製速度 {gb_s:.1f} GB/s（讀加寫）讀一遍要 {read:.2f} 毫秒。"
            "這是從主記憶體搬權重的時間，不是量出來的下限：小模型可能整個留在處理器快取裡、讀得更快；"
            "一次前向的其餘時間花在每一層的固定開銷與計算上。",
            "en": "Dashed line: the {mb:.1f} MB of weights every forward reads in full, at the measured memory-copy speed of "
            "{gb_s:.1f} GB/s (bytes read plus written), take {read:.2f} ms to read once. That is the time to bring the "
            "weights from main memory, not a measured floor: a small model may stay in the processor's cache and be read "
            "faster; the rest of a forward goes to each layer's fixed costs and arithmetic.",
        },
    }
)
