"""Three questions a student can answer after each act, with why the answer is right.

Each question is one entry of data: the question, the options, which one is right and why, in both
languages. The page draws them; nothing is scored or stored beyond the student's own session.
"""
from __future__ import annotations

import streamlit as st

from ui.parable.texts import TEXT
from ui.shared.i18n import language


def q(zh: str, en: str) -> dict[str, str]:
    return {"zh": zh, "en": en}


QUIZ = {
    1: [
        (q("墨卿每寫一字要做什麼？", "What does the master do for every single character?"),
         [q("重讀整張紙（讀過全部權重）", "Reread the whole sheet (move all his weights)"), q("只看上一個字", "Look at the last character only"),
          q("一次寫完一整行", "Write a whole line at once")], 0,
         q("自迴歸解碼每個詞元都跑一次完整前向，把全部權重讀過一遍。", "Autoregressive decoding runs one full forward pass per token, reading all the weights.")),
        (q("墨卿慢的原因是？", "Why is the master slow?"),
         [q("手不夠穩", "His hand is unsteady"), q("工作的順序：每個字都依賴前面所有的字", "The order of the work: each character depends on all before it"),
          q("墨不夠", "He runs out of ink")], 1,
         q("下一個字要等前一個字寫好才知道，所以只能一字一字來。", "The next character is known only once the previous one is written, so it goes one at a time.")),
        (q("在 GPU 上，一次前向最花時間的是？", "On a GPU, what costs a forward pass most of its time?"),
         [q("把權重從記憶體讀出來", "Reading the weights from memory"), q("寫出一個字", "Writing out one character"),
          q("抽亂數", "Drawing random numbers")], 0,
         q("解碼受記憶體頻寬限制：算得很快，讀權重很慢。", "Decoding is bound by memory bandwidth: the arithmetic is quick, reading the weights is slow.")),
    ],
    2: [
        (q("阿速一行寫 k 個字，墨卿要看幾眼？", "A-Su drafts k characters; how many glances does the master need?"),
         [q("k 眼", "k glances"), q("一眼", "One glance"), q("k + 1 眼", "k + 1 glances")], 1,
         q("目標模型一次前向就替 k 個位置（再加一個）打分。", "One forward pass of the target scores all k positions (and one more).")),
        (q("阿速可以自作主張嗎？", "May A-Su put in ideas of his own?"),
         [q("可以，越有創意越好", "Yes, the more original the better"), q("不行：他只能模仿墨卿的筆跡", "No: he may only imitate the master's hand"),
          q("只有在行首可以", "Only at the start of a line")], 1,
         q("草稿模型 q 越像 p，被接受的字越多。", "The closer the draft q is to p, the more of its tokens are accepted.")),
        (q("為什麼校一行的代價和寫一字差不多？", "Why does checking a line cost about as much as writing one character?"),
         [q("墨卿看得很快", "The master reads fast"), q("讀一次權重就能替整行打分", "One read of the weights scores the whole line"),
          q("阿速已經檢查過了", "A-Su already checked it")], 1,
         q("驗證是一次前向：權重只讀一次，多幾個位置幾乎不加成本。", "Verification is one forward pass: the weights are read once, a few more positions add little.")),
    ],
    3: [
        (q("第七字被退回後，後面的字怎麼辦？", "After the seventh character is rejected, what happens to the ones after it?"),
         [q("一起保留", "They are kept too"), q("全部作廢", "They are all discarded"), q("逐一再看", "Each is checked again")], 1,
         q("後面的字是接在錯字之後寫的，前提已經不成立。", "They were written after the wrong character, so their premise no longer holds.")),
        (q("蓋了印的六個字算誰寫的？", "Whose are the six sealed characters?"),
         [q("阿速的", "A-Su's"), q("墨卿的", "The master's"), q("一半一半", "Half and half")], 1,
         q("接受的字與墨卿自己會寫的分布相同。", "The accepted tokens follow the master's own distribution.")),
        (q("一輪最少得幾個字？", "What is the least one round writes?"),
         [q("零個", "Nothing"), q("一個", "One token"), q("k 個", "k tokens")], 1,
         q("就算第一字就退回，墨卿也會寫下改正的字。", "Even if the first token is rejected, the master writes the correction.")),
    ],
    4: [
        (q("阿速寫了 x，墨卿保留它的機率是？", "A-Su wrote x; with what probability does the master keep it?"),
         [q("p(x)", "p(x)"), q("min(1, p(x)/q(x))", "min(1, p(x)/q(x))"), q("q(x)", "q(x)")], 1,
         q("這是鐵律：p 比 q 大就一定保留，否則按比例保留。", "That is the iron rule: kept surely where p ≥ q, otherwise in proportion p/q.")),
        (q("退回時，新字從哪裡抽？", "After a rejection, where is the new character drawn from?"),
         [q("從 p", "From p"), q("從 max(0, p − q) 正規化後", "From max(0, p − q), normalised"), q("從 q", "From q")], 1,
         q("殘差補上 q 少給的部分，兩條路合起來正好是 p。", "The residual makes up what q under-supplied; both paths together give exactly p.")),
        (q("如果退回後改從 p 重抽，結果會？", "If the master resampled from p after a rejection, the result would"),
         [q("仍然完全正確", "Still be exactly p"), q("偏向 p 高的字，不再是 p", "Lean towards p's likely tokens, no longer p"),
          q("變快", "Be faster")], 1,
         q("這是「退回後從 p 重抽」這個壞規則：證明頁上它的偏差看得見。", "That is the broken rule resample-p: the proof page shows its bias.")),
    ],
    5: [
        (q("α 是什麼？", "What is α?"),
         [q("草稿字被接受的平均機率 Σ min(p, q)", "The mean chance a drafted token is accepted, Σ min(p, q)"),
          q("阿速的速度", "A-Su's speed"), q("每行字數", "Characters per line")], 0,
         q("α 越高，每次校閱得到的字越多。", "The higher α, the more tokens each glance yields.")),
        (q("k 越大一定越快嗎？", "Is a larger k always faster?"),
         [q("是", "Yes"), q("不一定：整行通過的機會變小，草稿也要時間", "No: whole lines pass less often, and drafting costs time"),
          q("只在 GPU 上是", "Only on a GPU")], 1,
         q("加速是 (1 − α^(k+1)) / ((1 − α)(k·c + 1))：有一個最好的 k。", "The speedup (1 − α^(k+1)) / ((1 − α)(k·c + 1)) has a best k.")),
        (q("阿速太差時會怎樣？", "What happens when A-Su is too poor?"),
         [q("輸出分布變了", "The output distribution changes"), q("還是正確，只是變慢", "Still exact, only slower"),
          q("墨卿會拒絕工作", "The master refuses to work")], 1,
         q("鐵律保證分布不變；差的草稿只浪費校閱。", "The iron rule keeps the distribution; a poor draft only wastes glances.")),
    ],
}


def check_yourself(act: int) -> None:
    """The act's three questions, each answered on the spot with why."""
    lang = language()
    with st.expander(TEXT("check")):
        for i, (question, options, right, why) in enumerate(QUIZ[act]):
            names = [option[lang] for option in options]
            picked = st.radio(question[lang], range(len(options)), format_func=names.__getitem__, index=None,
                              key=f"quiz_{act}_{i}_{lang}")
            if picked is not None:
                (st.success if picked == right else st.error)(TEXT("right" if picked == right else "wrong") + why[lang])
