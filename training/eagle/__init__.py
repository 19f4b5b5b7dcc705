"""Training a feature scribe (EAGLE) for any Llama master: the pieces every pair shares (train.py).

Each pair supplies its own text and the master's states over it (training/<pair>/…features.py),
then calls ``train.train`` with its master, head tokens and where to write.
"""
