using System;
using System.Collections.Generic;
using System.Linq;

namespace Demo
{
    [Serializable]
    public class Account
    {
        public string Name { get; set; }
        public decimal Balance { get; private set; }

        public Account(string name) { Name = name; }

        public void Deposit(decimal amount)
        {
            if (amount <= 0)
            {
                throw new ArgumentException("amount must be positive");
            }
            Balance += amount;
            Console.WriteLine($"deposited {amount}");
        }

        [Obsolete("use Deposit")]
        public void Add(decimal amount) => Deposit(amount);

        public static IEnumerable<string> Names(List<Account> accounts)
        {
            var rich = accounts.Where(a => a.Balance > 100).Select(a => a.Name);
            Console.WriteLine("names");
            return rich.ToList();
        }
    }
}
