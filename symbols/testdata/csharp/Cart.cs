using System;
using System.Collections.Generic;
using static System.Math;
using Json = System.Text.Json;

namespace Example.Shop
{
    /// <summary>A cart of items.</summary>
    [Serializable]
    public class Cart<T> : ICart where T : Item
    {
        public const int MaxItems = 100;
        private readonly List<T> items = new();
        public string Owner { get; set; }
        internal int count;
        public event EventHandler Changed;

        public Cart(string owner) { Owner = owner; }

        /// <summary>Adds an item.</summary>
        public void Add(T item) => items.Add(item);

        void Clear() { }

        protected virtual int Size() { return items.Count; }

        public class Line { public decimal Price() => 0; }
    }

    public interface ICart
    {
        void Add(Item item);
        string Owner { get; }
    }

    public struct Point { public int X; public int Y; }

    public enum Color { Red, Green = 2 }

    public delegate void Handler(object sender);

    record Pair(string A, string B);

    public record struct Money(decimal Amount);
}

namespace Example.Other
{
    static class Helpers { public static int Twice(int x) => 2 * x; }
}
