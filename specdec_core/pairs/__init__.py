"""Named model pairs: a target, its tokenizer and a ladder of drafts."""
