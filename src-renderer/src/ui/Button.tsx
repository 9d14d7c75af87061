import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'up' | 'down';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-primary-fg hover:bg-primary-hover border-transparent',
  secondary: 'bg-surface text-fg border-line-strong hover:bg-raised',
  ghost: 'bg-transparent text-fg border-transparent hover:bg-raised',
  danger: 'bg-down text-white border-transparent hover:opacity-90',
  up: 'bg-up text-white border-transparent hover:opacity-90 dark:text-canvas',
  down: 'bg-down text-white border-transparent hover:opacity-90 dark:text-canvas',
};

const SIZES = {
  sm: 'min-h-7 px-2.5 text-xs gap-1',
  md: 'min-h-9 px-3.5 text-sm gap-1.5',
  lg: 'min-h-11 px-5 text-[0.9375rem] gap-2',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
  icon?: ReactNode;
  testId?: string;
}

/** The app's one button: a primary action per screen, secondary and ghost for the rest. */
export function Button({
  variant = 'secondary',
  size = 'md',
  icon,
  testId,
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type="button"
      data-testid={testId}
      className={cn(
        'inline-flex cursor-pointer items-center justify-center rounded-lg border font-semibold whitespace-nowrap',
        'transition-colors disabled:cursor-not-allowed disabled:opacity-50',
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...rest}
    >
      {icon}
      {children}
    </button>
  );
}
