"""Helpers of run_qa.py: SQuAD-format examples -> model features (long contexts cut into windows with a
doc stride), and model outputs -> answer texts (best-span post-processing with n-best, maximum answer
length and SQuAD 2.0 null answers).

Plain Python lists and a fast tokenizer's offset mappings do what the ``datasets`` library does in
transformers' examples/pytorch/question-answering/utils_qa.py; the algorithm is the same.
"""

from __future__ import annotations

import collections
import os

import numpy as np

from paraguide.data.squad import answer_matches, locate, read_squad
from paraguide.errors import DataError

# ---------------------------------------------------------------------------------------------------------
# Reading SQuAD-format files
# ---------------------------------------------------------------------------------------------------------


def read_examples(
    path: str | os.PathLike, *, need_answers: bool, max_samples: int | None = None
) -> tuple[list[dict], bool]:
    """The questions of a SQuAD v1.1 / v2.0 (or DuReader-robust) file as examples
    ``{id, question, context, answers: [{text, answer_start}]}``, and whether the file is SQuAD 2.0-style
    (has unanswerable questions, marked ``is_impossible: true``; their ``answers`` is ``[]``).

    ``need_answers``: every question must have an answer or be marked unanswerable (training and scored
    test files). A question with no answers that is not marked is a :class:`DataError` naming it; a file
    where no question has any answer says so (QA needs reference answers to score).
    Answers whose ``answer_start`` is -1 or wrong (DuReader-robust's dev set) are located in the context.
    """
    path = os.fspath(path)
    records, header = read_squad(path)
    if not records:
        raise DataError(path, "no questions in the file")
    if max_samples is not None:
        records = records[:max_samples]
    v2 = str(header.get("version", "")).startswith("v2") or any("is_impossible" in r for r in records)
    if need_answers and not v2 and not any(r["answers"] for r in records):
        raise DataError(
            path,
            "no question has an answer: a test file needs reference answers to be scored (give it with "
            "--predict_files to write predictions only)",
            field="answers",
        )
    examples = []
    for r in records:
        answers = [] if r.get("is_impossible") else r["answers"]
        if need_answers and not answers and not r.get("is_impossible"):
            raise DataError(
                path,
                "question has no answers; give at least one, or mark it unanswerable with "
                '"is_impossible": true (SQuAD 2.0)',
                record=f"id {r['id']}",
                field="answers",
            )
        fixed = []
        for a in answers:
            if not answer_matches(r["context"], a):
                a = {**a, "answer_start": locate(r["context"], a["text"], a["answer_start"])}
            fixed.append(a)
        examples.append(
            {"id": str(r["id"]), "question": r["question"], "context": r["context"], "answers": fixed}
        )
    return examples, v2


# ---------------------------------------------------------------------------------------------------------
# Features
# ---------------------------------------------------------------------------------------------------------


def _questions(tokenizer, examples: list[dict], max_query_length: int) -> list[str]:
    """Questions without leading white space (it can push a context past the window, as in transformers'
    example), cut to ``max_query_length`` tokens (the cut made on the text, at a token's end offset)."""
    questions = [e["question"].lstrip() for e in examples]
    enc = tokenizer(questions, add_special_tokens=False, return_offsets_mapping=True)
    out = []
    for q, offsets in zip(questions, enc["offset_mapping"], strict=True):
        out.append(q[: offsets[max_query_length - 1][1]] if len(offsets) > max_query_length else q)
    return out


def _encode(tokenizer, examples: list[dict], max_seq_length: int, doc_stride: int, max_query_length: int):
    pad_on_right = tokenizer.padding_side == "right"  # question first (BERT) or context first (XLNet)
    questions = _questions(tokenizer, examples, max_query_length)
    contexts = [e["context"] for e in examples]
    return tokenizer(
        questions if pad_on_right else contexts,
        contexts if pad_on_right else questions,
        truncation="only_second" if pad_on_right else "only_first",
        max_length=max_seq_length,
        stride=doc_stride,
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
        padding=False,
    ), pad_on_right


MODEL_INPUTS = ("input_ids", "token_type_ids", "attention_mask")


def prepare_train_features(
    tokenizer, examples: list[dict], max_seq_length: int, doc_stride: int, max_query_length: int = 64
) -> tuple[list[dict], int]:
    """Training features: one per window of each context, with ``start_positions`` / ``end_positions``
    the answer's first and last token, or the [CLS] token (index 0) when the window does not hold the
    answer or the question is unanswerable. The first answer of each question is the one trained on.
    Returns the features and the number of questions skipped because their answer text is not in the
    context."""
    features, skipped = [], 0
    for chunk in range(0, len(examples), 1000):  # bounded memory on big files
        part = examples[chunk : chunk + 1000]
        enc, pad_on_right = _encode(tokenizer, part, max_seq_length, doc_stride, max_query_length)
        context_id = 1 if pad_on_right else 0
        for i, offsets in enumerate(enc["offset_mapping"]):
            example = part[enc["overflow_to_sample_mapping"][i]]
            input_ids = enc["input_ids"][i]
            cls_index = input_ids.index(tokenizer.cls_token_id) if tokenizer.cls_token_id in input_ids else 0
            sequence_ids = enc.sequence_ids(i)
            feature = {k: enc[k][i] for k in MODEL_INPUTS if k in enc}
            if not example["answers"] or context_id not in sequence_ids:  # unanswerable, or no context
                feature["start_positions"] = feature["end_positions"] = cls_index
                features.append(feature)
                continue
            answer = example["answers"][0]
            start_char = answer["answer_start"]
            if start_char < 0:
                continue  # the answer text is not in the context (counted below)
            end_char = start_char + len(answer["text"])
            token_start = 0
            while sequence_ids[token_start] != context_id:
                token_start += 1
            token_end = len(input_ids) - 1
            while sequence_ids[token_end] != context_id:
                token_end -= 1
            if not (offsets[token_start][0] <= start_char and offsets[token_end][1] >= end_char):
                feature["start_positions"] = feature["end_positions"] = cls_index  # answer not in window
            else:
                while token_start < len(offsets) and offsets[token_start][0] <= start_char:
                    token_start += 1
                while offsets[token_end][1] >= end_char:
                    token_end -= 1
                feature["start_positions"], feature["end_positions"] = token_start - 1, token_end + 1
            features.append(feature)
        skipped += sum(1 for e in part if e["answers"] and e["answers"][0]["answer_start"] < 0)
    return features, skipped


def prepare_eval_features(
    tokenizer, examples: list[dict], max_seq_length: int, doc_stride: int, max_query_length: int = 64
) -> list[dict]:
    """Evaluation features: the windows of each context, each with ``example_index`` and an
    ``offset_mapping`` whose entries outside the context are ``None`` (never part of an answer)."""
    features = []
    for chunk in range(0, len(examples), 1000):
        part = examples[chunk : chunk + 1000]
        enc, pad_on_right = _encode(tokenizer, part, max_seq_length, doc_stride, max_query_length)
        context_id = 1 if pad_on_right else 0
        for i, offsets in enumerate(enc["offset_mapping"]):
            sequence_ids = enc.sequence_ids(i)
            feature = {k: enc[k][i] for k in MODEL_INPUTS if k in enc}
            feature["example_index"] = chunk + enc["overflow_to_sample_mapping"][i]
            feature["offset_mapping"] = [
                tuple(o) if sequence_ids[k] == context_id else None for k, o in enumerate(offsets)
            ]
            features.append(feature)
    return features


# ---------------------------------------------------------------------------------------------------------
# Post-processing
# ---------------------------------------------------------------------------------------------------------


def postprocess_qa_predictions(
    examples: list[dict],
    features: list[dict],
    all_start_logits: list[np.ndarray],
    all_end_logits: list[np.ndarray],
    *,
    version_2_with_negative: bool = False,
    n_best_size: int = 20,
    max_answer_length: int = 30,
    null_score_diff_threshold: float = 0.0,
) -> tuple[dict[str, str], dict[str, list[dict]]]:
    """Answer texts from start/end logits: over every window of a question, the ``n_best_size`` best start
    and end tokens are paired into spans inside the context (end not before start, at most
    ``max_answer_length`` tokens); a span's score is its start logit plus its end logit, and the best
    span's text (cut from the context by the offsets) is the prediction. With SQuAD 2.0 data the null
    answer (start = end = [CLS]; its score is the lowest over the windows) is predicted (``""``) when it
    beats the best span by more than ``null_score_diff_threshold``.

    Returns ``{id: answer text}`` and ``{id: the n best [{text, score, probability}]}``."""
    features_per_example = collections.defaultdict(list)
    for i, feature in enumerate(features):
        features_per_example[feature["example_index"]].append(i)

    predictions: dict[str, str] = {}
    nbest_json: dict[str, list[dict]] = {}
    for example_index, example in enumerate(examples):
        min_null_score = None
        candidates = []
        context = example["context"]
        for feature_index in features_per_example[example_index]:
            start_logits = all_start_logits[feature_index]
            end_logits = all_end_logits[feature_index]
            offsets = features[feature_index]["offset_mapping"]
            feature_null_score = float(start_logits[0] + end_logits[0])
            if min_null_score is None or feature_null_score < min_null_score:
                min_null_score = feature_null_score
            start_indexes = np.argsort(start_logits)[-1 : -n_best_size - 1 : -1].tolist()
            end_indexes = np.argsort(end_logits)[-1 : -n_best_size - 1 : -1].tolist()
            for s in start_indexes:
                for e in end_indexes:
                    if s >= len(offsets) or e >= len(offsets) or offsets[s] is None or offsets[e] is None:
                        continue  # outside the context (question, special tokens, padding)
                    if e < s or e - s + 1 > max_answer_length:
                        continue
                    candidates.append(
                        {
                            "offsets": (offsets[s][0], offsets[e][1]),
                            "score": float(start_logits[s] + end_logits[e]),
                        }
                    )
        candidates.sort(key=lambda c: c["score"], reverse=True)
        best = [
            {"text": context[c["offsets"][0] : c["offsets"][1]], "score": c["score"]}
            for c in candidates[:n_best_size]
        ]
        if version_2_with_negative and min_null_score is not None:
            best.append({"text": "", "score": min_null_score})
            best.sort(key=lambda c: c["score"], reverse=True)
        if not best:  # no valid span at all (e.g. an empty context): predict the empty string
            best = [{"text": "", "score": 0.0}]
        scores = np.array([c["score"] for c in best])
        probs = np.exp(scores - scores.max())
        probs /= probs.sum()
        for c, p in zip(best, probs, strict=True):
            c["probability"] = float(p)

        if not version_2_with_negative:
            predictions[example["id"]] = best[0]["text"]
        else:
            non_null = next((c for c in best if c["text"] != ""), None)
            if non_null is None or min_null_score - non_null["score"] > null_score_diff_threshold:
                predictions[example["id"]] = ""
            else:
                predictions[example["id"]] = non_null["text"]
        nbest_json[example["id"]] = best
    return predictions, nbest_json
