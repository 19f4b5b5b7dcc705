"""Training a feature scribe (EAGLE) for any Llama master: the pieces every pair shares (features.py, train.py).

Each pair supplies its own text and reads the master's states over it with ``features.features``
into shards (training/<pair>/…features.py), then calls ``train.train`` with its master, head tokens
and where to write.
"""
