"""Three questions a student can answer after each act and the coda, with why the answer is right, and a teacher's key.

Each question is one entry of data in both languages: an id, the question, its options, the right
one, a short reason shown once the student answers, and the teacher's key, which says why the
answer holds in the algorithm's terms. Each option names the claim it makes (`claim`), so
tests/test_quiz.py can compute every claim from the algorithm and check that exactly the right one
holds. The page draws them; nothing is scored or stored beyond the student's own session.
"""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui.parable.texts import TEXT
from ui.shared.i18n import language

Words = dict[str, str]


def words(zh: str, en: str) -> Words:
    return {"zh": zh, "en": en}


@dataclass(frozen=True)
class Option:
    claim: str  # what choosing this option asserts, named for the test that computes it
    text: Words


@dataclass(frozen=True)
class Question:
    id: str
    ask: Words
    options: tuple[Option, ...]
    right: str  # the claim of the right option
    why: Words  # shown to the student once answered
    key: Words  # the teacher's answer key: why the right answer holds

    @property
    def right_index(self) -> int:
        return [option.claim for option in self.options].index(self.right)


CODA = "margin"  # the coda's questions, after the five acts': variants in the margin (a drafted tree)
QUIZ: dict[int | str, tuple[Question, ...]] = {
    1: (
        Question(
            "act1_per_character",
            words("墨卿每寫一字要做什麼？", "What does the master do for every single character?"),
            (
                Option("one_forward_whole_context", words("做一次完整的前向：讀過全部權重，並回看前面所有的字",
                                                          "One full forward pass: read all his weights and look back over every earlier character")),
                Option("last_only", words("只看上一個字", "Look at the last character only")),
                Option("whole_line", words("一次寫完一整行", "Write a whole line at once")),
            ),
            "one_forward_whole_context",
            words("自迴歸解碼每個詞元跑一次完整前向：權重讀一遍，注意力回看整段前文。",
                  "Autoregressive decoding runs one full forward pass per token: the weights are read once, and attention looks back over the whole context."),
            words("每寫一個詞元就跑一次完整的前向：每層的權重都讀一遍（故事裡的磨墨），注意力再回看前面所有位置"
                  "（重讀整張紙；KV 快取存著前文算過的結果，所以是讀過，不是重算）。不是只看上一字：改動更早的字，下一字的機率就跟著變。"
                  "也不是一次一行：沒有草稿時，一次前向只得一字。",
                  "One full forward pass per token: every layer's weights are read once (the story's grinding of ink), and attention "
                  "looks back over every earlier position (rereading the sheet; the KV cache keeps what was computed for them, so they "
                  "are read, not recomputed). Not the last character only: change an earlier one and the next character's "
                  "probabilities change. Not a line at once: without a draft, one forward pass yields one token."),
        ),
        Question(
            "act1_why_slow",
            words("墨卿慢的原因是？", "Why is the master slow?"),
            (
                Option("unsteady_hand", words("手不夠穩", "His hand is unsteady")),
                Option("sequential", words("工作的順序：每個字都依賴前面所有的字", "The order of the work: each character depends on all before it")),
                Option("out_of_ink", words("墨不夠", "He runs out of ink")),
            ),
            "sequential",
            words("下一個字要等前一個字寫好才知道，所以只能一字一字來。", "The next character is known only once the previous one is written, so it goes one at a time."),
            words("下一字的機率以前面所有的字為條件，前一字沒寫出來，下一次前向就無從開始：n 個字要 n 次接連的前向。"
                  "推測解碼不改這個規矩，只是先讓阿速猜出幾個字，墨卿再用一次前向把它們一起驗。",
                  "The next character's probabilities are conditioned on every character before it, so the next forward pass cannot "
                  "start until this character is written: n characters take n forward passes, one after another. Speculative decoding "
                  "keeps that rule; it lets A-Su guess a few characters first, so the master checks them together in one pass."),
        ),
        Question(
            "act1_forward_time",
            words("解碼時，一次前向的時間大多花在哪裡？", "When decoding, where does a forward pass spend most of its time?"),
            (
                Option("once_per_forward", words("每次前向不論看幾個位置都要付一次的成本：讀權重、每個運算的固定開銷",
                                                 "What every forward pays once, however many positions it scores: reading the "
                                                 "weights, each operation's fixed cost")),
                Option("per_position_arithmetic", words("為每個位置做的算術", "The arithmetic for each position")),
                Option("random_numbers", words("抽亂數", "Drawing random numbers")),
            ),
            "once_per_forward",
            words("解碼一次只寫一個位置：時間花在每次前向都要付一次的事上，每個位置的算術很少。",
                  "Decoding writes one position at a time: the time goes to what every forward pays once; each position's "
                  "arithmetic is small."),
            words("寓言想的是 GPU 上的大模型，那筆成本是讀權重：70 億參數的模型用 16 位元存，每個詞元讀約 14 GB，"
                  "以約 2 TB/s 的記憶體頻寬要約 7 毫秒。這個網站在 CPU 上跑小模型，速度實驗室的「看一眼」圖量出這台機器上讀權重占一步的多少："
                  "小模型的一步有不少花在每個運算的固定開銷上。兩種情形裡，每個位置的算術都很少："
                  "一眼看 k + 1 個位置，遠比分開做 k + 1 次單一位置的前向便宜。",
                  "In the parable's picture, a large model on a GPU, that cost is reading the weights: a 7-billion-parameter "
                  "model in 16 bits reads about 14 GB per token, about 7 ms at 2 TB/s of memory bandwidth. This site runs small "
                  "models on a CPU, and the speed lab's glance chart measures how much of a step reading the weights takes on this "
                  "machine: with small models much of a step goes to each operation's fixed cost. In both cases each position's "
                  "arithmetic is small: a glance over "
                  "k + 1 positions costs far less than k + 1 one-position forwards."),
        ),
    ),
    2: (
        Question(
            "act2_glances",
            words("阿速一行寫 k 個字，墨卿要看幾眼？", "A-Su drafts k characters; how many glances does the master need?"),
            (
                Option("k", words("k 眼", "k glances")),
                Option("one", words("一眼", "One glance")),
                Option("k_plus_one", words("k + 1 眼", "k + 1 glances")),
            ),
            "one",
            words("目標模型一次前向就替 k 個位置（再加一個）打分。", "One forward pass of the target scores all k positions (and one more)."),
            words("阿速的 k 個字連同前文一起送進墨卿的一次前向，得到 k + 1 個位置的分布：k 個用來驗草稿，"
                  "最後一個在整行通過時用來加一字。所以不管 k 多大，一輪只看一眼。",
                  "A-Su's k characters go into one forward pass of the master together with the context, which returns distributions "
                  "at k + 1 positions: k to check the draft, and one more for the bonus character when the whole line passes. "
                  "One glance per round, whatever k."),
        ),
        Question(
            "act2_own_ideas",
            words("墨卿叮囑「不要自作主張」。阿速若偏照自己的意思寫，會怎樣？",
                  "The master says: no ideas of your own. What if A-Su writes as he pleases anyway?"),
            (
                Option("output_changes", words("紙上就不再是墨卿的字", "The sheet is no longer the master's")),
                Option("exact_but_slower", words("紙上仍與墨卿獨寫的分布相同，只是退回變多、變慢",
                                                 "The sheet still follows the master's distribution exactly; more is rejected, so it is slower")),
                Option("accepts_all", words("墨卿只好照單全收", "The master has to accept it all")),
            ),
            "exact_but_slower",
            words("鐵律對任何 q 都保證輸出是 p；q 離 p 越遠，α 越低，只是變慢。",
                  "The iron rule gives exactly p for any q; the further q is from p, the lower α, and only the speed suffers."),
            words("字 x 由阿速寫出並蓋印的機率是 min(p(x), q(x))，由朱筆寫出的機率是 max(0, p(x) − q(x))，兩者相加就是 p(x)，對任何 q 都成立："
                  "阿速怎麼寫，都不會讓紙上的字偏離墨卿。墨卿叮囑的是速度：α = Σ min(p, q) 隨 q 離 p 變遠而下降，每一眼得到的字就變少。",
                  "A character x is drafted and sealed with probability min(p(x), q(x)) and written by the red brush with probability "
                  "max(0, p(x) − q(x)); the two add up to p(x) for any q, so nothing A-Su writes can pull the sheet away from the master. The master's request is about "
                  "speed: α = Σ min(p, q) falls as q strays from p, and each glance yields fewer characters."),
        ),
        Question(
            "act2_glance_cost",
            words("為什麼校一行的代價和寫一字差不多？", "Why does checking a line cost about as much as writing one character?"),
            (
                Option("reads_fast", words("墨卿看得很快", "The master reads fast")),
                Option("one_read_of_weights", words("讀一次權重就能替整行打分", "One read of the weights scores the whole line")),
                Option("scribe_checked", words("阿速已經檢查過了", "A-Su already checked it")),
            ),
            "one_read_of_weights",
            words("驗證是一次前向：權重只讀一次，多幾個位置幾乎不加成本。", "Verification is one forward pass: the weights are read once, a few more positions add little."),
            words("墨卿的一眼是一次前向：權重只讀一遍，就替整行每個位置打分。多幾個位置只多一點算術，而解碼時算術不是瓶頸（第一幕第三題）。"
                  "速度實驗室量得到這台機器上的「一眼成本」：看 k + 1 個位置比看一個位置貴多少。",
                  "The master's glance is one forward pass: the weights are read once and every position of the line is scored. More "
                  "positions add only arithmetic, which is not what limits decoding (Act 1, question 3). The speed lab measures this "
                  "machine's glance cost: how much dearer k + 1 positions are than one."),
        ),
    ),
    3: (
        Question(
            "act3_after_rejection",
            words("第五字被退回後，接在它後面的第六字怎麼辦？", "Once the fifth character is rejected, what happens to the sixth, written after it?"),
            (
                Option("kept", words("一起保留", "It is kept too")),
                Option("discarded", words("作廢", "It is discarded")),
                Option("checked_again", words("再看一次", "It is checked again")),
            ),
            "discarded",
            words("第六字是接在錯字之後寫的，前提已經不成立。", "It was written after the wrong character, so its premise no longer holds."),
            words("阿速的第六字以錯的第五字為前文；墨卿改了第五字，這個前文就不存在了。所以一輪只留最長的已接受前綴，加一個改正字，"
                  "後面一律作廢，兩邊的 KV 快取也回捲到保留的字。即使第六字單獨看會被接受，也照樣作廢。",
                  "A-Su wrote the sixth after the wrong fifth, so it was drawn in a context that the correction removes. A round keeps "
                  "the longest accepted prefix plus one correction and drops everything after it, and both KV caches roll back to what "
                  "was kept. The sixth is dropped even if it would have passed on its own."),
        ),
        Question(
            "act3_sealed_alone",
            words("只看蓋了印的字（不算朱筆改的），它們照誰的分布？",
                  "Taken alone, without the red brush's corrections, what distribution do the sealed characters follow?"),
            (
                Option("p", words("墨卿的分布 p", "The master's distribution p")),
                Option("min_over_alpha", words("min(p, q)/α：偏向兩人都會寫的字；加上朱筆改的字，才正好是 p",
                                               "min(p, q)/α, leaning to what both would write; only with the corrections is it exactly p")),
                Option("q", words("阿速的分布 q", "The scribe's distribution q")),
            ),
            "min_over_alpha",
            words("蓋印與朱筆合起來才是 p；蓋印的字單獨看是 min(p, q)/α。",
                  "Sealing and the red brush together give p; the sealed characters alone follow min(p, q)/α."),
            words("阿速寫出 x 又蓋了印的機率是 q(x)·min(1, p(x)/q(x)) = min(p(x), q(x))，所以蓋印的字之間的分布是 min(p, q)/α，"
                  "偏向兩人都常寫的字，不是 p。朱筆在退回時補上 max(0, p − q)，兩者相加才正好是 p。"
                  "所以和墨卿獨寫分不出來的是整張紙，不是單看蓋印的字。",
                  "A-Su writes x and it is sealed with probability q(x)·min(1, p(x)/q(x)) = min(p(x), q(x)), so among sealed characters "
                  "the distribution is min(p, q)/α, leaning to what both would write, not p. The red brush adds max(0, p − q) on "
                  "rejections, and only the two together give exactly p. It is the whole sheet that cannot be told from the master's, "
                  "not the sealed characters alone."),
        ),
        Question(
            "act3_least",
            words("一輪最少得幾個字？", "What is the least one round writes?"),
            (
                Option("none", words("零個", "Nothing")),
                Option("one", words("一個", "One token")),
                Option("k", words("k 個", "k tokens")),
            ),
            "one",
            words("就算第一字就退回，墨卿也會寫下改正的字。", "Even if the first token is rejected, the master writes the correction."),
            words("每一輪都以墨卿親筆的一字收尾：第一字就被退回時，是朱筆改正的字；整行通過時，是從第 k + 1 個位置的 p 加的一字。"
                  "所以一輪至少一字、至多 k + 1 字：每一眼得到的字從不少於墨卿獨寫的一字。",
                  "Every round ends with one character of the master's own: the red brush's correction when the first character is "
                  "rejected, or, when the whole line passes, a bonus drawn from p at position k + 1. So a round writes at least one "
                  "character and at most k + 1: a glance never yields fewer than the master's own single character."),
        ),
    ),
    4: (
        Question(
            "act4_keep_prob",
            words("阿速寫了 x，墨卿保留它的機率是？", "A-Su wrote x; with what probability does the master keep it?"),
            (
                Option("p", words("p(x)", "p(x)")),
                Option("ratio", words("min(1, p(x)/q(x))", "min(1, p(x)/q(x))")),
                Option("q", words("q(x)", "q(x)")),
            ),
            "ratio",
            words("這是鐵律：p 不小於 q 就一定保留，否則按 p/q 的比例保留。", "That is the iron rule: kept surely where p ≥ q, otherwise in proportion p/q."),
            words("以 min(1, p(x)/q(x)) 保留：p(x) ≥ q(x) 時一定留；阿速比墨卿更常寫的字，只留 p/q 的比例。"
                  "這樣「寫出 x 並蓋印」的機率恰好是 min(p(x), q(x))，從不超過墨卿自己寫 x 的機率 p(x)。以 p(x) 或 q(x) 當保留機率都做不到。",
                  "Keep with probability min(1, p(x)/q(x)): surely where p(x) ≥ q(x), and in proportion p/q where A-Su writes x more "
                  "often than the master would. Then “x written and sealed” has probability exactly min(p(x), q(x)), never more than "
                  "p(x), the master's own chance of writing x. Keeping with probability p(x) or q(x) does not give this."),
        ),
        Question(
            "act4_residual",
            words("退回時，新字從哪裡抽？", "After a rejection, where is the new character drawn from?"),
            (
                Option("p", words("從 p", "From p")),
                Option("residual", words("從 max(0, p − q) 正規化後", "From max(0, p − q), normalised")),
                Option("q", words("從 q", "From q")),
            ),
            "residual",
            words("殘差補上 q 少給的部分，兩條路合起來正好是 p。", "The residual makes up what q under-supplied; both paths together give exactly p."),
            words("蓋印已經給了每個字 min(p, q)，還差 p − min(p, q) = max(0, p − q)。退回的機率是 1 − α，而 max(0, p − q) 的總量也正好是 1 − α，"
                  "所以退回時從正規化的 max(0, p − q) 抽，每個字就補到剛好 p。從 p 或從 q 抽都補不準。",
                  "Sealing already gives each character min(p, q); what is missing is p − min(p, q) = max(0, p − q). A rejection "
                  "happens with probability 1 − α, and max(0, p − q) sums to exactly 1 − α, so drawing from the normalised "
                  "max(0, p − q) on rejection tops every character up to exactly p. Drawing from p or from q does not."),
        ),
        Question(
            "act4_resample_p",
            words("如果退回後改從 p 重抽，結果會？", "If the master resampled from p after a rejection, the result would"),
            (
                Option("exact", words("仍然完全正確", "Still be exactly p")),
                Option("favours_master", words("偏向 p 高的字，不再是 p", "Lean towards p's likely tokens, no longer p")),
                Option("favours_scribe", words("偏向阿速愛寫的字（q > p 的字），不再是 p", "Lean towards the scribe's favourites (where q > p), no longer p")),
            ),
            "favours_scribe",
            words("輸出變成 min(p, q) + (1 − α)·p：凡是 q > p 的字都比 p 多。證明頁上它的偏差看得見。",
                  "The output becomes min(p, q) + (1 − α)·p: every token with q > p comes out above p. The proof page shows its bias."),
            words("蓋印給 min(p, q)，退回（機率 1 − α）後從 p 抽再給 (1 − α)·p，合起來是 min(p, q) + (1 − α)·p。"
                  "q > p 的字已從蓋印拿足 p，又多拿 (1 − α)·p，一定過多；多出的部分由 p 遠高於 q 的字付出。"
                  "鐵律頁的玩具表看得到：阿速最愛的字（q 高於 p）出現得比 p 多，墨卿最愛的字反而比 p 少。",
                  "Sealing gives min(p, q); a rejection (probability 1 − α) followed by a draw from p adds (1 − α)·p, so the output is "
                  "min(p, q) + (1 − α)·p. A token with q > p already gets its full p from sealing, then (1 − α)·p more: always too "
                  "much, paid for by tokens where p is well above q. The iron rule's toy table shows it: the scribe's favourite "
                  "(q above p) comes out above p, while the master's favourite comes out below p."),
        ),
    ),
    5: (
        Question(
            "act5_alpha",
            words("α 是什麼？", "What is α?"),
            (
                Option("accept_rate", words("草稿字被接受的平均機率 Σ min(p, q)", "The mean chance a drafted token is accepted, Σ min(p, q)")),
                Option("scribe_speed", words("阿速的速度", "A-Su's speed")),
                Option("line_length", words("每行字數", "Characters per line")),
            ),
            "accept_rate",
            words("α 越高，每次校閱得到的字越多。", "The higher α, the more tokens each glance yields."),
            words("阿速從 q 寫出 x、又被留下的機率是 q(x)·min(1, p(x)/q(x)) = min(p(x), q(x))，對所有 x 加起來就是 α = Σ min(p, q)："
                  "q 越接近 p，α 越接近 1。一輪平均得到 (1 − α^(k+1)) / (1 − α) 字，隨 α 上升。",
                  "A-Su writes x from q and it is kept with probability q(x)·min(1, p(x)/q(x)) = min(p(x), q(x)); summed over x "
                  "that is α = Σ min(p, q). The closer q is to p, the closer α is to 1. A round yields (1 − α^(k+1)) / (1 − α) "
                  "characters on average, which grows with α."),
        ),
        Question(
            "act5_larger_k",
            words("k 越大一定越快嗎？", "Is a larger k always faster?"),
            (
                Option("always", words("是", "Yes")),
                Option("has_best_k", words("不一定：整行通過的機會變小，草稿也要時間", "No: whole lines pass less often, and drafting costs time")),
                Option("gpu_only", words("只在 GPU 上是", "Only on a GPU")),
            ),
            "has_best_k",
            words("加速是 (1 − α^(k+1)) / ((1 − α)(k·c + 1))：有一個最好的 k。", "The speedup (1 − α^(k+1)) / ((1 − α)(k·c + 1)) has a best k."),
            words("第 i 個草稿字要連同前面的字全部通過才算數，機率 α^i，越往後越小；但每多寫一字，每一輪都要多付 c。"
                  "所以加速 (1 − α^(k+1)) / ((1 − α)(k·c + 1)) 先升後降，有一個最好的 k；一眼成本約為 1 的 GPU 上也一樣。"
                  "只有草稿不花時間（c = 0）而且一眼成本不隨 k 增加時，k 越大才不會變慢。",
                  "The i-th drafted character counts only if it and all before it pass, with probability α^i, which shrinks; yet each "
                  "extra drafted character costs c in every round. So the speedup (1 − α^(k+1)) / ((1 − α)(k·c + 1)) rises, then "
                  "falls: there is a best k, on a GPU whose glance costs about 1 too. Only if drafting were free (c = 0) and a glance "
                  "cost the same for any k would a larger k never be slower."),
        ),
        Question(
            "act5_poor_scribe",
            words("阿速太差時會怎樣？", "What happens when A-Su is too poor?"),
            (
                Option("output_changes", words("輸出分布變了", "The output distribution changes")),
                Option("exact_but_slower", words("還是正確，只是變慢", "Still exact, only slower")),
                Option("master_refuses", words("墨卿會拒絕工作", "The master refuses to work")),
            ),
            "exact_but_slower",
            words("鐵律保證分布不變；差的草稿只浪費校閱。", "The iron rule keeps the distribution; a poor draft only wastes glances."),
            words("分布不變的理由對任何 q 都成立（第四幕）：蓋印 min(p, q) 加朱筆 max(0, p − q) 就是 p。差的抄寫員只讓 α 變低，"
                  "一眼常常只得一字，卻還要付阿速的時間 k·c，所以可能比墨卿獨寫還慢。",
                  "Why the distribution holds works for any q (Act 4): sealed min(p, q) plus red brush max(0, p − q) is p. A poor "
                  "scribe only lowers α: a glance often yields one character while still paying the scribe's k·c, so it can be slower "
                  "than the master alone."),
        ),
    ),
    CODA: (
        Question(
            "margin_next_variant",
            words("墨卿劃掉頁邊的第一個異文後，第二個異文拿什麼來比？",
                  "Once the master strikes the first variant in the margin, what is the second tried against?"),
            (
                Option("whole_intent", words("他完整的筆意 p，和第一個一樣", "His whole intent p, like the first")),
                Option("what_is_left", words("剩下的筆意：正規化的 max(0, p − q)", "What is left of his intent: the normalised max(0, p − q)")),
                Option("scribe_hand", words("阿速的筆意 q", "The scribe's hand q")),
            ),
            "what_is_left",
            words("第一個異文已經用掉它那份機會；再拿完整的筆意比，阿速偏愛的字就會多得。",
                  "The first variant has had its share; trying the next against the whole intent again would give the scribe's favourites extra chances."),
            words("走到一個節點時，r 從 p 開始；第一個兄弟 x 以 min(1, r(x)/q(x)) 接受，被拒絕後 r 換成正規化的 max(0, r − q)，"
                  "第二個兄弟只和這個 r 比，依此類推（SpecInfer 的多步推測取樣）。這樣這一層寫出的字恰好照 p。"
                  "若每個兄弟都和 p 比（壞規則「異文不扣殘差」），q > p 的字一再拿到機會，分布偏向阿速。"
                  "和 q 比更不行：r = q 時 min(1, q(x)/q(x)) = 1，什麼都收。",
                  "At a node r starts as p; the first sibling x is accepted with probability min(1, r(x)/q(x)), and once it is "
                  "rejected r becomes the normalised max(0, r − q), which the second sibling alone faces, and so on (SpecInfer's "
                  "multi-step speculative sampling). Then the character written at that depth follows p exactly. Were every "
                  "sibling tried against p (the broken rule tree-no-residual), tokens with q > p would get chance after chance "
                  "and the page would lean towards the scribe. Against q it is worse: with r = q, min(1, q(x)/q(x)) = 1 accepts anything."),
        ),
        Question(
            "margin_glances",
            words("阿速在頁邊寫了好幾層異文，墨卿要看幾眼才校完整棵樹？",
                  "A-Su pencils variants in the margin several depths deep. How many glances does the master need for the whole tree?"),
            (
                Option("one", words("一眼", "One glance")),
                Option("per_depth", words("每一層一眼", "One a depth")),
                Option("per_variant", words("每個異文一眼", "One a variant")),
            ),
            "one",
            words("整棵樹送進墨卿的一次前向，每個節點只看得見前文和自己的祖先。",
                  "The whole tree goes into one forward pass of the master, each node seeing only the context and its own ancestors."),
            words("目標模型用樹狀注意力遮罩做一次前向，為每個節點之後的位置都給出 p：節點只看得見前文和它路徑上的節點。"
                  "阿速則每一層一次前向，同一層的節點一起展開。一眼看的位置多了，一眼的成本也會上升："
                  "速度實驗室的「鏈與樹」一節在這台機器上量給你看。",
                  "The target runs one forward pass under a tree attention mask and returns p after every node: a node sees "
                  "only the context and the nodes on its own path. The scribe spends one forward a depth, expanding a depth's "
                  "nodes together. A glance over more positions costs more: the speed lab's chain-against-tree section "
                  "measures how much on this machine."),
        ),
        Question(
            "margin_same_twice",
            words("阿速在頁邊同一處把同一個字寫了兩次。墨卿劃掉了第一個，第二個呢？",
                  "A-Su pencilled the same character twice at one place in the margin. The master struck the first; what of the second?"),
            (
                Option("struck_too", words("一定也被劃掉", "It is always struck too")),
                Option("same_chance", words("和第一個有同樣的機會留下", "It has the same chance of staying as the first had")),
                Option("always_kept", words("一定留下：墨卿不會連劃兩次", "It always stays: the master never strikes twice")),
            ),
            "struck_too",
            words("墨卿會劃掉它，表示阿速比墨卿更想寫這個字；剩下的筆意裡已經沒有它。",
                  "The master strikes it only where the scribe wanted it more than he did; what is left of his intent holds none of it."),
            words("第一個 x 被拒絕，只可能發生在 q(x) > p(x)：否則 min(1, p(x)/q(x)) = 1，一定接受。"
                  "這時剩下的筆意 max(0, p − q) 在 x 上是 0，第二個 x 的接受機率 min(1, 0/q(x)) = 0。"
                  "所以頁邊重複的字，劃掉一次就不會再留；它白佔了一個位置，這是兄弟從 q 獨立抽出（可以重複）的代價。"
                  "若第二個仍和 p 比（壞規則「異文不扣殘差」），它又得到 p(x)/q(x) 的機會，x 就寫得比 p 多。",
                  "The first x can be rejected only where q(x) > p(x): otherwise min(1, p(x)/q(x)) = 1 and it is surely "
                  "accepted. Then what is left, max(0, p − q), is 0 at x, and the second x is accepted with probability "
                  "min(1, 0/q(x)) = 0. A repeated character in the margin, once struck, never stays; it wastes a place, the "
                  "price of siblings drawn from q independently (repeats allowed). Were the second tried against p again "
                  "(the broken rule tree-no-residual), it would get another chance of p(x)/q(x), and x would come out above p."),
        ),
    ),
}
QUESTIONS = {question.id: question for questions in QUIZ.values() for question in questions}


def check_yourself(act: int | str) -> None:
    """The act's (or the coda's) three questions, each answered on the spot with why."""
    lang = language()
    with st.expander(TEXT("check")):
        for question in QUIZ[act]:
            names = [option.text[lang] for option in question.options]
            picked = st.radio(question.ask[lang], range(len(names)), format_func=names.__getitem__, index=None,
                              key=f"quiz_{question.id}_{lang}")
            if picked is not None:
                right = picked == question.right_index
                # a wrong pick is told the right answer first: the why that follows explains that answer, not the pick
                told = TEXT("right") if right else TEXT("wrong", answer=names[question.right_index])
                (st.success if right else st.error)(told + question.why[lang])


def answer_key(act: int | str) -> None:
    """The teacher's key to the act's questions: each right answer and why it holds, collapsed by default."""
    lang = language()
    with st.expander(TEXT("key")):
        for number, question in enumerate(QUIZ[act], start=1):
            answer = question.options[question.right_index].text[lang]
            st.markdown(TEXT("key_entry", number=number, ask=question.ask[lang], answer=answer, reason=question.key[lang]))
