"""Words of the home page: the parable in five acts and an epilogue, in our own words, and its mapping to the algorithm."""
from ui.shared.i18n import Texts

TEXT = Texts(
    {
        "title": {"zh": "御筆樓：墨卿與阿速", "en": "The Scriptorium: Mo Qing and A-Su"},
        "subtitle": {
            "zh": "一則關於推測解碼（speculative decoding）的寓言。每一幕都連到一頁，在真正的模型上演給你看。",
            "en": "A fable about speculative decoding. Every act links to a page that performs it on real models.",
        },
        "start": {"zh": "開始：走進御筆樓", "en": "Start: enter the scriptorium"},
        "check": {"zh": "考考自己：三個問題", "en": "Check yourself: three questions"},
        "key": {"zh": "教師解答：三題的答案與理由", "en": "Teacher's answer key: the three answers and why they hold"},
        "key_entry": {"zh": "{number}. **{ask}**  \n答：{answer}  \n{reason}", "en": "{number}. **{ask}**  \nAnswer: {answer}  \n{reason}"},
        "right": {"zh": "對。", "en": "Right. "},
        "wrong": {"zh": "再想想：答案是「{answer}」。", "en": "Not quite: the answer is “{answer}”. "},
        "scenarios": {"zh": "一鍵情境", "en": "Scenarios in one click"},
        "scenario_good": {"zh": "好抄寫員", "en": "A good scribe"},
        "scenario_good_help": {"zh": "最像墨卿的抄寫員：整行常常全數蓋印。", "en": "The scribe closest to the master: whole lines are often sealed."},
        "scenario_correction": {"zh": "看一次朱筆改正", "en": "Show a correction"},
        "scenario_correction_help": {
            "zh": "次好的抄寫員：一行常先蓋上幾個印，朱筆才落下。直接打開在第一處朱筆改正。",
            "en": "The second-best scribe: a line is often sealed part way before the red brush falls. Opens on the first correction.",
        },
        "scenario_poor": {"zh": "差抄寫員", "en": "A poor scribe"},
        "scenario_poor_help": {"zh": "最不像墨卿的抄寫員：朱筆常在行首就落下。", "en": "The scribe least like the master: the red brush falls near the start of each line."},
        "scenario_shaky": {"zh": "手抖", "en": "The shaky hand"},
        "scenario_shaky_help": {"zh": "好抄寫員，但手抖 0.6：看 α 下降。", "en": "The good scribe with a shaky hand of 0.6: watch α fall."},
        "scenario_greedy": {"zh": "貪婪（T = 0）", "en": "Greedy (T = 0)"},
        "scenario_greedy_help": {"zh": "溫度 0：寫出的字與墨卿自己貪婪解碼一字不差。", "en": "Temperature 0: the text equals the master's own greedy decoding."},
        "scenario_broken": {"zh": "壞掉的規則", "en": "A broken rule"},
        "scenario_broken_help": {
            "zh": "退回後從 p 重抽，配上抓得到它的抄寫員（不是最好也不是最差：偏差在兩端都會消失）：證明頁上 2,000 個樣本就現形。",
            "en": "Resampling from p after a rejection, with the scribe that catches it (neither the best nor the poorest: its "
            "bias vanishes at both ends): on the proof page 2,000 samples show it.",
        },
        "act1_title": {"zh": "第一幕　寫不完的詔書", "en": "Act 1 · The endless edict"},
        "act1": {
            "zh": "句國的國王要在三天內頒下一道極長的詔書。樓頂的墨卿是全國最準、也最慢的一支筆：每寫一字，都要磨墨、定筆、把整張紙從頭再看一遍。"
            "一天過去，紙上不過三十來字。不是他手慢，而是規矩如此：下一字要看前面所有的字，前一字沒寫完，後一字就無從決定。",
            "en": "The king of Ju wants a very long edict within three days. Mo Qing, at the top of the tower, is the most exact and the slowest hand "
            "in the land: before each character he grinds ink, settles the brush and rereads the whole sheet. After a day he has some thirty characters. "
            "His hand is not the problem; the order of the work is. Each character depends on all before it, so the next cannot be decided until this one is written.",
        },
        "act1_is": {
            "zh": "這就是自回歸解碼：目標模型每產生一個詞元就要做一次完整的前向計算，每次都把全部權重搬過記憶體。",
            "en": "This is autoregressive decoding: the target model runs one full forward pass per token, and each pass moves all its weights through memory.",
        },
        "act2_title": {"zh": "第二幕　快手阿速", "en": "Act 2 · The quick scribe"},
        "act2": {
            "zh": "墨卿把樓下的年輕抄寫員阿速叫來：「照我的筆意，一口氣先寫一行，寫錯無妨，不要自作主張。」"
            "墨卿發現，一眼校完整行，花的工夫和自己寫一個字差不多，而一行有好幾個字。",
            "en": "The master calls A-Su, a young scribe from downstairs: “Dash off a whole line in my style. Mistakes are fine; ideas of your own are not.” "
            "Checking a whole line at one glance, the master finds, costs him about as much as writing one character, and a line holds several.",
        },
        "act2_is": {
            "zh": "草稿模型 q 先取樣 k 個詞元；目標模型 p 用一次前向計算就為這 k 個位置（外加下一個位置）都給出機率。",
            "en": "The draft model q samples k tokens; one forward pass of the target p scores all k positions (and the one after them).",
        },
        "act3_title": {"zh": "第三幕　朱筆只改第一個錯字", "en": "Act 3 · The red brush fixes only the first wrong character"},
        "act3": {
            "zh": "阿速這一行寫了六字。墨卿從左往右看，每接受一字就蓋一方朱印。看到第五字，他停了：換作是他，不會這樣寫。"
            "前四字蓋了印，留在紙上；第五字他親筆改正；第六字是接著錯字寫的，一併作廢。他把紙交回阿速，從改正處接著寫。",
            "en": "A-Su's line has six characters. The master reads from the left and stamps a red seal on each character he accepts. "
            "At the fifth he stops: he would never write it that way. The four sealed characters stay on the sheet; he writes the fifth himself; "
            "the sixth, written after the wrong one, is struck out with it. He hands the sheet back for A-Su to continue after the correction.",
        },
        "act3_is": {
            "zh": "接受最長的驗證前綴；在第一個被拒絕的位置重新取樣；兩邊的 KV 快取回捲到保留的字。",
            "en": "Accept the longest verified prefix; resample at the first rejection; roll both KV caches back to what was kept.",
        },
        "act4_title": {"zh": "第四幕　鐵律", "en": "Act 4 · The iron rule"},
        "act4": {
            "zh": "墨卿既不照單全收，也不憑喜好挑字。一個字留不留，看的是「換作我，有多大把握寫出它」。"
            "阿速寫的若正是墨卿也可能寫的，就留下；墨卿若更想寫別的字，就換成他真正會寫的那個。"
            "這樣寫成的整張紙，和墨卿獨自寫的，在統計上分毫不差：分布相同，只是少了許多慢吞吞的回合。",
            "en": "The master neither accepts everything nor picks what he likes. Whether a character stays depends on how sure he himself would have been to write it. "
            "If the scribe wrote what the master might well have written, it stays; if the master would rather write something else, he replaces it with what he truly would write. "
            "The finished sheet cannot be told apart, statistically, from one he wrote alone: the same distribution, far fewer slow passes.",
        },
        "act4_is": {
            "zh": "以機率 min(1, p(x)/q(x)) 接受；拒絕時從正規化的 max(0, p − q) 抽樣。輸出分布恰好等於只從 p 取樣。",
            "en": "Accept with probability min(1, p(x)/q(x)); on rejection sample from the normalised max(0, p − q). The output distribution is exactly sampling from p.",
        },
        "act5_title": {"zh": "第五幕　抄寫員不能太差", "en": "Act 5 · The scribe must not be too poor"},
        "act5": {
            "zh": "阿速若寫得離墨卿的筆意太遠，墨卿每行開頭就得改：白看一眼只得一字，還搭上阿速的工夫。"
            "抄寫員太慢，墨卿要等；抄寫員太差，墨卿白看。要挑筆跡像墨卿、手又快得多的人。挑對了人，詔書幾乎快了一倍完成，而且沒有一個字看得出不是墨卿親筆。",
            "en": "If A-Su's characters are far from the master's style, the master rejects near the start of every line: a wasted glance for one character, plus the scribe's time. "
            "Too slow a scribe and the master waits; too poor a scribe and the master checks in vain. Choose one whose hand resembles the master's and who is far faster. "
            "With the right scribe the edict was done almost twice as fast, and no character on it could be told from the master's own.",
        },
        "act5_is": {
            "zh": "接受率 α 與成本比 c 決定加速：(1 − α^(k+1)) / ((1 − α)(k·c + 1))；k 越大，草稿越多，但整行通過的機會越小。",
            "en": "The acceptance rate α and cost ratio c set the speedup, (1 − α^(k+1)) / ((1 − α)(k·c + 1)); a larger k drafts more but passes whole less often.",
        },
        "epilogue_title": {"zh": "尾聲　阿速讀墨卿的筆記", "en": "Epilogue · A-Su reads the master's notes"},
        "epilogue": {
            "zh": "後來阿速學了一招。墨卿寫下一字之前，下一筆的筆意已在心中，他順手記在筆記上。阿速不再只看紙上的字：他先讀墨卿的筆記，照著筆意趕寫。"
            "第一個字讀的是墨卿真正的筆記，常常猜中；從第二字起墨卿還沒寫，他只能讀自己猜的筆意，越往後越容易走樣。"
            "墨卿照舊一眼校完整行、照舊改正：紙上沒有一個字看得出不是墨卿親筆。",
            "en": "Later A-Su learned a trick. Before the master writes a character, the next stroke is already in his mind, and he jots it in his notes. "
            "A-Su no longer reads only the page: he reads the master's notes and dashes off the line from them. "
            "For the first character he reads the master's own note and often guesses right; from the second on the master has not written yet, "
            "so he reads his own guess of the note, and drifts more the further he goes. "
            "The master still checks the line in one glance and corrects as before: nothing on the page can be told from the master's own hand.",
        },
        "epilogue_is": {
            "zh": "特徵層草稿（EAGLE，Li 等 2024，arXiv 2401.15077）：草稿讀目標模型頂層的隱藏狀態和剛寫下的詞元，預測下一個隱藏狀態，"
            "再經目標模型自己的輸出層得到 q。驗證規則不變，所以輸出分布仍恰好是 p，只有速度改變。"
            "第二個草稿詞元起，它讀的是自己預測的狀態，接受率在那裡下降；EAGLE-3（arXiv 2503.01840）讓草稿在訓練時就讀自己的預測，把它補回來。",
            "en": "A feature-level draft (EAGLE, Li et al. 2024, arXiv 2401.15077): the draft reads the target's top-layer hidden state and the token just "
            "written, predicts the next hidden state, and turns it into q through the target's own output head. The verification rule is unchanged, "
            "so the output distribution is still exactly p; only the speed changes. From the second drafted token on it reads its own predicted "
            "state, and that is where acceptance falls; EAGLE-3 (arXiv 2503.01840) trains the draft on its own predictions to win it back.",
        },
        "see": {"zh": "在真模型上看：", "en": "See it on real models:"},
        "mapping": {"zh": "故事與演算法的對照", "en": "The story and the algorithm"},
        "story": {"zh": "故事裡", "en": "In the story"},
        "algorithm": {"zh": "演算法裡", "en": "In the algorithm"},
        "cite": {
            "zh": "出處：Leviathan、Kalman、Matias，〈Fast Inference from Transformers via Speculative Decoding〉，ICLR 2023（arXiv 2211.17192）；"
            "Chen 等，〈Accelerating Large Language Model Decoding with Speculative Sampling〉，2023（arXiv 2302.01318）。",
            "en": "Sources: Leviathan, Kalman & Matias, “Fast Inference from Transformers via Speculative Decoding”, ICLR 2023 (arXiv 2211.17192); "
            "Chen et al., “Accelerating Large Language Model Decoding with Speculative Sampling”, 2023 (arXiv 2302.01318).",
        },
        # the coda: variants in the margin (a drafted tree, SpecInfer's multi-step speculative sampling)
        "coda_title": {"zh": "後記　頁邊的異文", "en": "Coda · Variants in the margin"},
        "coda": {
            "zh": "阿速有時拿不準：這一處，墨卿會寫「月」還是「光」？他不再只押一個字，而在頁邊用小字寫下兩三個異文，每個異文後面還能接著往下寫。"
            "墨卿照舊只看一眼，就把正文和頁邊的異文一起校完。他先拿第一個異文和自己的筆意相比；若劃掉了它，"
            "第二個異文只和他剩下的筆意相比，也就是扣掉阿速那一筆已經拿走的部分，絕不再拿完整的筆意去比。"
            "再劃掉，第三個就和又剩下的相比；全被劃掉，墨卿便照最後剩下的筆意親筆寫一字。"
            "若每個異文都拿完整的筆意去比，阿速偏愛的字就多了好幾次機會，紙上便偏向阿速。照這個規矩，頁邊寫多少異文，"
            "這一頁仍分毫不差是墨卿的。只是異文越多，墨卿這一眼要看的字越多，阿速也要多寫：多得的字付不付得起，要量過才知道。",
            "en": "Sometimes A-Su cannot decide: here, would the master write “moon” or “light”? Rather than stake everything on one "
            "character, he pencils two or three variants in the margin, and each variant may run on further. The master still "
            "takes one glance and checks the line and the margin together. He tries the first variant against his own intent; "
            "if he strikes it, he tries the second only against what is left of his intent, less the share the first already "
            "took, and never against his whole intent again. If he strikes that too, the third faces what is left after both; "
            "if all are struck, he writes the character himself from what is left last. Were every variant tried against his "
            "whole intent, the scribe's favourite characters would get several chances, and the page would lean towards the "
            "scribe. By this rule, however many variants fill the margin, the page stays his, exactly. But the more variants, "
            "the more the master's glance must read and the more the scribe must write: whether the extra characters pay for "
            "that has to be measured.",
        },
        "coda_is": {
            "zh": "草稿樹與多步推測取樣（SpecInfer，Miao 等 2024，arXiv 2305.09781）：每個節點的子節點從 q 獨立抽出（可以重複），"
            "目標模型用樹狀注意力遮罩一次前向為整棵樹評分。走到一個節點時 r 從 p 開始，兄弟依抽出順序以 min(1, r(x)/q(x)) 接受，"
            "每拒絕一個，r 就換成正規化的 max(0, r − q)；全被拒絕時從最後的 r 抽一字。輸出分布恰好是 p。"
            "每個兄弟都和 p 比，是本站的壞規則「異文不扣殘差」，證明頁抓得到它。",
            "en": "A drafted tree and multi-step speculative sampling (SpecInfer, Miao et al. 2024, arXiv 2305.09781): each node's "
            "children are drawn from q independently (repeats allowed), and the target scores the whole tree in one forward pass "
            "under a tree attention mask. At a node r starts as p; siblings are accepted in the order drawn with probability "
            "min(1, r(x)/q(x)), and each rejection replaces r with the normalised max(0, r − q); if all are rejected, one token "
            "is drawn from the last r. The output distribution is exactly p. Testing every sibling against p is this app's "
            "broken rule tree-no-residual, which the proof page catches.",
        },
    }
)

MAPPING = [
    ({"zh": "墨卿，慢而精確", "en": "Mo Qing, slow and exact"}, {"zh": "目標模型 p，標準答案", "en": "target model p, the ground truth"}),
    ({"zh": "阿速，快而潦草", "en": "A-Su, fast and sloppy"}, {"zh": "草稿模型 q", "en": "draft model q"}),
    ({"zh": "一口氣寫一字", "en": "one character per breath"}, {"zh": "自回歸解碼：每個詞元一次目標前向計算", "en": "autoregressive decoding: one target forward per token"}),
    ({"zh": "每字之前都要磨墨", "en": "grinding ink before every character"}, {"zh": "每次前向計算都把全部權重搬過記憶體", "en": "each forward moves all weights through memory"}),
    ({"zh": "阿速趕寫一行", "en": "the scribe rushes a line"}, {"zh": "草稿從 q 取樣 k 個詞元", "en": "the draft samples k tokens from q"}),
    ({"zh": "一眼校完整行", "en": "one glance checks the line"}, {"zh": "一次目標前向計算為 k 個詞元評分（並給出第 k+1 個位置的分布）", "en": "one target forward scores all k tokens (and gives the (k+1)-th distribution)"}),
    ({"zh": "接受的字蓋朱印", "en": "seal on accepted characters"}, {"zh": "被接受的前綴", "en": "accepted prefix"}),
    ({"zh": "朱筆改第一個錯字", "en": "red brush on the first wrong one"}, {"zh": "第一個拒絕，從正規化的 max(0, p − q) 重新取樣", "en": "first rejection, resampled from normalised max(0, p − q)"}),
    ({"zh": "整行通過，墨卿再加一字", "en": "whole line accepted: the master adds one more"}, {"zh": "加筆詞元：從第 k+1 個位置的 p 取樣", "en": "bonus token sampled from p at position k+1"}),
    ({"zh": "「換作我，有多大把握」", "en": "“how sure would I have been”"}, {"zh": "接受機率 min(1, p(x)/q(x))", "en": "acceptance probability min(1, p(x)/q(x))"}),
    ({"zh": "「看不出是誰寫的」", "en": "“cannot be told apart”"}, {"zh": "輸出分布等於只從 p 取樣", "en": "output distribution equals sampling from p alone"}),
    ({"zh": "「幾乎快了一倍」", "en": "“almost twice as fast”"}, {"zh": "加速 (1 − α^(k+1)) / ((1 − α)(k·c + 1))", "en": "speedup (1 − α^(k+1)) / ((1 − α)(k·c + 1))"}),
    ({"zh": "阿速讀墨卿的筆記", "en": "the scribe reads the master's notes"}, {"zh": "特徵層草稿：讀目標模型頂層的隱藏狀態（EAGLE）", "en": "feature-level draft: reads the target's top-layer hidden state (EAGLE)"}),
    ({"zh": "阿速的筆跡像不像墨卿", "en": "the scribe's resemblance to the master"}, {"zh": "α = Σ min(p, q)，期望接受率", "en": "α = Σ min(p, q), the expected acceptance"}),
    ({"zh": "頁邊的異文", "en": "variants in the margin"}, {"zh": "草稿樹：同一位置有幾個從 q 獨立抽出的候選，一次目標前向校完", "en": "a drafted tree: several candidates per position drawn from q independently, checked in one target forward"}),
    ({"zh": "下一個異文只和剩下的筆意比", "en": "the next variant faces only what is left of the intent"}, {"zh": "下一個兄弟對殘差 norm(max(0, r − q)) 檢驗", "en": "the next sibling is tested against the residual norm(max(0, r − q))"}),
]
