"""The smollm2 pair's distilled scribe: teacher text and distributions, the student, its measures.

    python -m training.smollm2 all      # teacher, student, eval; resumable stage by stage
"""
