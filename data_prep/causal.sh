#!/usr/bin/env bash
# The pretrained paraphraser (Gemma 3 270M + LoRA + copy head), one multilingual adapter:
#   1. cased `paraguide prepare` of Quora (TextRank), KQA Pro (alignment) and LCQMC + BQ (TextRank),
#      a quarter of the examples with the empty suggestion (free rewrites);
#   2. data_prep/causal_corpus.py keeps the pairs that keep the question (numbers and names agree, length
#      within 1.6x, bundled sim scorer >= its augmentation threshold) and mixes them;
#   3. paraguide train --backbone gemma-3-270m (checkpoints every 25 steps; run it again with --resume to go on).
#   bash data_prep/causal.sh            (SHARED=path/to/shared/data OUT=folder MODEL=folder STEPS=N to override)
set -euo pipefail
SHARED=${SHARED:-../shared/data}
OUT=${OUT:-runs/gemma_corpus}
MODEL=${MODEL:-runs/gemma-mixed}
STEPS=${STEPS:-3000}
export NLTK_DATA=${NLTK_DATA:-$SHARED/nltk_data} HF_HUB_OFFLINE=1
prep() { [ -s "$2/train.jsonl" ] || paraguide prepare --pairs "$1" --out "$2/train.jsonl" --no-lowercase --empty-share 0.25 --workers 1 --quiet "${@:3}"; }
prep "$SHARED/quora_paraphrase_pairs/quora_pos_union_dedup.tsv.gz" "$OUT/quora" --lang en
prep "$SHARED/kqapro_question_paraphrases/dev.tsv.gz" "$OUT/kqapro1" --lang en --suggestions alignment --one-direction \
    --format tsv-unlabelled --pairs "$SHARED/kqapro_question_paraphrases/test.tsv.gz"
prep "$SHARED/lcqmc/train.tsv.gz" "$OUT/zh" --lang zh --pairs "$SHARED/bq_corpus/train.tsv.gz"
[ -s "$OUT/mixed/train.jsonl" ] || python data_prep/causal_corpus.py --en "$OUT/quora/train.jsonl:30000" \
    --en "$OUT/kqapro/train.jsonl:10000" --zh "$OUT/zh/train.jsonl:60000" --out "$OUT/mixed/train.jsonl"
RESUME=()
[ -f "$MODEL/run.json" ] && RESUME=(--resume)
paraguide train --backbone gemma-3-270m --train-file "$OUT/mixed/train.jsonl" --output-dir "$MODEL" \
    --max-steps "$STEPS" --save-every 25 --eval-every 100 --eval-examples 160 "${RESUME[@]}"
