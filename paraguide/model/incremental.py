"""A BART decoder run one token at a time for beam search (:mod:`paraguide.model.beam`): the arithmetic of
transformers' ``BartDecoder`` in its inference case, without the generality that costs most of a small
model's decoding step. The tests check that a step gives what ``BartForConditionalGeneration`` gives with
its own cache.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def supports(backbone) -> bool:
    """The decoder here is BART's exactly (learned positions, post-norm layers, embedding layer norm)."""
    return type(backbone).__name__ == "BartForConditionalGeneration"


class IncrementalBartDecoder:
    """Decoder state of ``sentences × beams`` rows over encoded sentences.

    ``step(tokens)`` feeds one token per row and returns the decoder's output states (sentences, beams,
    d) and the vocabulary logits (rows, V); ``reorder(parents, keep)`` makes row r continue row
    ``parents[r]``'s history and keeps only the sentences ``keep``.

    What differs from ``BartDecoder``, and why:
    * q, k and v of the self-attention come from one fused projection (one matrix product, not three);
    * cross-attention keys and values are projected once per *sentence*, not per beam row, and the beams of
      a sentence attend to them as one group of queries: they never need reordering or copying;
    * the self-attention cache is one tensor pair per layer, reordered and extended in one step;
    * no masks are built for the self-attention (a running beam has no padding and only sees the past);
    * no per-step Cache objects, output records or keyword plumbing.
    """

    def __init__(self, backbone, encoder_states: torch.Tensor, attention_mask: torch.Tensor, beams: int):
        decoder = backbone.model.decoder
        self.decoder, self.lm_head, self.logits_bias = decoder, backbone.lm_head, backbone.final_logits_bias
        self.beams, self.length = beams, 0
        first = decoder.layers[0].self_attn
        self.heads, self.head_dim, self.scale = first.num_heads, first.head_dim, first.scaling
        self.qkv = []
        self.cross_keys, self.cross_values = [], []
        for layer in decoder.layers:
            attn = layer.self_attn
            weight = torch.cat([attn.q_proj.weight, attn.k_proj.weight, attn.v_proj.weight])
            bias = torch.cat([attn.q_proj.bias, attn.k_proj.bias, attn.v_proj.bias])
            self.qkv.append((weight, bias))
            cross = layer.encoder_attn
            self.cross_keys.append(self._heads(cross.k_proj(encoder_states)))  # (B, H, S, dh)
            self.cross_values.append(self._heads(cross.v_proj(encoder_states)))
        self.cross_mask = attention_mask.bool()[:, None, None, :]  # (B, 1, 1, S)
        self.keys: list[torch.Tensor | None] = [None] * len(decoder.layers)  # (rows, H, t, dh)
        self.values: list[torch.Tensor | None] = [None] * len(decoder.layers)
        self.parents: torch.Tensor | None = None

    def _heads(self, x: torch.Tensor) -> torch.Tensor:  # (B, L, d) -> (B, H, L, dh)
        return x.view(x.size(0), x.size(1), self.heads, self.head_dim).transpose(1, 2)

    def reorder(self, parents: torch.Tensor, keep: torch.Tensor | None = None) -> None:
        """Applied lazily, with the next step's cache extension (one copy instead of two)."""
        self.parents = parents if self.parents is None else self.parents[parents]
        if keep is not None:
            self.cross_keys = [k[keep] for k in self.cross_keys]
            self.cross_values = [v[keep] for v in self.cross_values]
            self.cross_mask = self.cross_mask[keep]

    def step(self, tokens: torch.LongTensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Feed one token per row; returns the output states (sentences, beams, d) and logits (rows, V)."""
        d = self.decoder
        rows = tokens.size(0)
        sentences = rows // self.beams
        # BART's learned positions are offset by 2
        x = d.embed_tokens(tokens) + d.embed_positions.weight[self.length + d.embed_positions.offset]
        x = d.layernorm_embedding(x)  # (rows, d)
        for i, layer in enumerate(d.layers):
            q, k, v = F.linear(x, *self.qkv[i]).view(rows, 3, self.heads, 1, self.head_dim).unbind(1)
            if self.keys[i] is not None:
                past_k, past_v = self.keys[i], self.values[i]
                if self.parents is not None:
                    past_k, past_v = past_k[self.parents], past_v[self.parents]
                k, v = torch.cat([past_k, k], 2), torch.cat([past_v, v], 2)
            self.keys[i], self.values[i] = k, v
            a = F.scaled_dot_product_attention(q, k, v, scale=self.scale)  # (rows, H, 1, dh)
            x = layer.self_attn_layer_norm(x + layer.self_attn.out_proj(a.reshape(rows, -1)))

            # The beams of a sentence are one group of queries over its encoder states.
            cross = layer.encoder_attn
            q = cross.q_proj(x).view(sentences, self.beams, self.heads, self.head_dim).transpose(1, 2)
            a = F.scaled_dot_product_attention(
                q, self.cross_keys[i], self.cross_values[i], attn_mask=self.cross_mask, scale=self.scale
            )  # (sentences, H, beams, dh)
            a = a.transpose(1, 2).reshape(rows, -1)
            x = layer.encoder_attn_layer_norm(x + cross.out_proj(a))
            x = layer.final_layer_norm(x + layer.fc2(layer.activation_fn(layer.fc1(x))))
        self.length += 1
        self.parents = None
        logits = self.lm_head(x) + self.logits_bias
        return x.view(sentences, self.beams, -1), logits
