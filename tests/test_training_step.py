"""The optimizer step every training phase shares: AdamW with the recipe's betas, gradients clipped to norm 1."""

import torch

from viz_model.training.step import BETAS, MAX_GRAD_NORM, adamw, optimizer_step

INPUTS = torch.randn(8, 4, generator=torch.Generator().manual_seed(1))


def _model_and_loss(scale: float):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 3)
    return model, scale * model(INPUTS).pow(2).sum()


def test_a_large_gradient_is_clipped_to_norm_one_before_the_update():
    model, loss = _model_and_loss(1000.0)
    before = [p.detach().clone() for p in model.parameters()]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)  # plain SGD: the update is lr times the gradient
    optimizer_step(model, optimizer, loss)
    grads = [p.grad for p in model.parameters()]
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    assert abs(float(norm) - MAX_GRAD_NORM) < 1e-4  # the raw gradient is far larger
    for p, b, g in zip(model.parameters(), before, grads, strict=True):
        torch.testing.assert_close(p.detach(), b - 0.1 * g)


def test_a_small_gradient_is_left_as_it_is():
    model, loss = _model_and_loss(1e-4)
    expected = torch.autograd.grad(loss, list(model.parameters()), retain_graph=True)
    optimizer_step(model, torch.optim.SGD(model.parameters(), lr=0.1), loss)
    for p, g in zip(model.parameters(), expected, strict=True):
        torch.testing.assert_close(p.grad, g)


def test_adamw_matches_torchs_own_with_the_recipes_settings():
    model, loss = _model_and_loss(1.0)
    twin = torch.nn.Linear(4, 3)
    twin.load_state_dict(model.state_dict())
    ours = adamw(model, lr=1e-3, weight_decay=0.1)
    theirs = torch.optim.AdamW(twin.parameters(), lr=1e-3, betas=BETAS, weight_decay=0.1)
    assert ours.param_groups[0]["betas"] == (0.9, 0.98)
    optimizer_step(model, ours, loss)
    twin_loss = twin(INPUTS).pow(2).sum()
    theirs.zero_grad()
    twin_loss.backward()
    torch.nn.utils.clip_grad_norm_(twin.parameters(), 1.0)
    theirs.step()
    for a, b in zip(model.parameters(), twin.parameters(), strict=True):
        torch.testing.assert_close(a, b)
