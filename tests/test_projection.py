import numpy as np
import pytest

from viz_model.lessons.projection import nearest_neighbours, pca


def test_hand_built_dataset():
    # points on the line y = 2x (plus the origin shift): all variance along (1, 2)/√5
    X = np.array([[0, 0], [1, 2], [2, 4], [3, 6]], dtype=float) + [10, -5]
    result = pca(X, n_components=2)
    np.testing.assert_allclose(result.mean, [11.5, -2.0])
    np.testing.assert_allclose(result.components[0], np.array([1, 2]) / np.sqrt(5), atol=1e-12)
    np.testing.assert_allclose(result.explained_variance_ratio, [1.0, 0.0], atol=1e-12)
    # coordinates along the line: distance from the mean, with the sign of the positive loading
    np.testing.assert_allclose(result.coords[:, 0], np.sqrt(5) * np.array([-1.5, -0.5, 0.5, 1.5]))
    np.testing.assert_allclose(result.coords[:, 1], 0, atol=1e-12)


def test_matches_covariance_eigenvalues_and_reconstructs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6)) @ rng.normal(size=(6, 6))
    result = pca(X, n_components=3)
    eigenvalues = np.sort(np.linalg.eigvalsh(np.cov(X, rowvar=False)))[::-1]
    np.testing.assert_allclose(result.explained_variance_ratio, eigenvalues[:3] / eigenvalues.sum())
    assert result.explained_variance_ratio.sum() <= 1 + 1e-12
    assert np.all(np.diff(result.explained_variance_ratio) <= 0)
    np.testing.assert_allclose(result.components @ result.components.T, np.eye(3), atol=1e-12)
    full = pca(X, n_components=6)
    np.testing.assert_allclose(full.mean + full.coords @ full.components, X)
    assert full.explained_variance_ratio.sum() == pytest.approx(1.0)


def test_sign_is_deterministic():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 4))
    a, b = pca(X, 3), pca(-X, 3)  # flipping the data flips the SVD's signs, not ours
    for component in a.components:
        assert component[np.argmax(np.abs(component))] > 0
    np.testing.assert_allclose(np.abs(a.components), np.abs(b.components), atol=1e-12)
    for component in b.components:
        assert component[np.argmax(np.abs(component))] > 0


def test_nearest_neighbours():
    # course §1 toy embeddings: Apple (5,5), Soccer (0,6), House (2,2), Car (6,0)
    V = np.array([[5, 5], [0, 6], [2, 2], [6, 0]], dtype=float)
    apple, soccer, house, car = range(4)
    hits = nearest_neighbours(V, apple, k=3)
    assert [i for i, _ in hits] == [house, soccer, car]  # ties (soccer, car at cos 0.71) by index
    assert hits[0][1] == pytest.approx(1.0)
    assert hits[1][1] == pytest.approx(np.sqrt(0.5))
    with_self = nearest_neighbours(V, apple, k=2, exclude_self=False)
    assert [i for i, _ in with_self] == [apple, house]
    assert [i for i, _ in nearest_neighbours(V, np.array([0.0, 1.0]), k=1)] == [soccer]
